import { CliError } from '../cli-error.js';

/**
 * `toolwright <command> --help`, `toolwright <command> -h` and `toolwright help <command>`: the text to
 * print, or undefined when the arguments ask for no command's help. The help of a command is its
 * section of the usage text, so the two never disagree.
 */
export function commandHelpRequest(argv: readonly string[], usage: string): string | undefined {
  const [command, ...rest] = argv;
  if (command === 'help' && rest[0] !== undefined) {
    const topic = rest[0].startsWith('-') ? 'help' : rest[0];
    const text = commandHelp(usage, topic);
    if (text === undefined) throw new CliError(`Unknown command '${topic}'.\n\n${usage}`, 2);
    return text;
  }
  if (command === undefined || command === 'help' || command.startsWith('-') || !asksForHelp(rest)) return undefined;
  return commandHelp(usage, command);
}

/** A `--help` or `-h` before any `--` (after which everything is an operand). */
function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/**
 * One command's sections of the usage text (`policy` has two), each as `Usage: toolwright <syntax>`
 * and its dedented description and options, then the exit codes.
 * @example
 *   "  build   Compile a project ...\n          --project, -p <tsconfig> ..."
 *   -> "Usage: toolwright build [options]\n\n  Compile a project ...\n  --project, -p <tsconfig> ..."
 */
export function commandHelp(usage: string, command: string): string | undefined {
  const sections = usageSections(usage).filter((section) => section.name === command);
  if (sections.length === 0) return undefined;
  // The paragraphs after the command list that name this command (such as one on configuration), then the exit codes.
  const notes = usage
    .split(/\n\s*\n/)
    .slice(2)
    .filter((paragraph) => new RegExp(`\\b${command}\\b`).test(paragraph) || paragraph.startsWith('Exit codes:'));
  return `${[...sections.map(renderSection), ...notes.map((note) => note.trimEnd())].join('\n\n')}\n`;
}

interface UsageSection {
  name: string;
  head: string;
  body: string[];
}

/** The `Commands:` block split at each line that starts a command (two spaces, then its name). */
function usageSections(usage: string): UsageSection[] {
  const lines = usage.split('\n');
  const start = lines.findIndex((line) => line.trim() === 'Commands:');
  const sections: UsageSection[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    const head = /^ {2}([a-z][a-z-]*)(\b.*)$/.exec(line);
    if (head) sections.push({ name: head[1]!, head: `${head[1]!}${head[2]!}`, body: [] });
    else sections.at(-1)?.body.push(line);
  }
  return sections;
}

function renderSection(section: UsageSection): string {
  // `emit    Write every ...`: a name and its description on one line; else the line is the syntax.
  const described = /^(.+?)\s{2,}(\S.*)$/.exec(section.head);
  const syntax = described ? `${described[1]!}${section.body.some((line) => line.trim().startsWith('-')) ? ' [options]' : ''}` : section.head;
  const body = described ? [`  ${described[2]!}`, ...dedent(section.body)] : dedent(section.body);
  return [`Usage: toolwright ${syntax}`, ...(body.length > 0 ? ['', ...body] : [])].join('\n');
}

/** Keeps the lines' relative indentation, with the least indented at two spaces. */
function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length);
  const least = Math.min(...indents);
  return lines.map((line) => `  ${line.slice(least)}`);
}
