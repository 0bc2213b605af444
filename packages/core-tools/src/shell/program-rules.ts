/**
 * The rules the judge applies to programs, all derived from the specs in `programs/` (one per
 * program): which programs never run, which wrap a command, which only read, and why a program's
 * arguments are refused, worded by `describeRefusal`.
 */
import { describeRefusal } from './programs/describe-refusal.js';
import { PROGRAM_SPECS, programSpec } from './programs/index.js';
import { copiedTrees, grammarFor, judgeOptions, readArguments } from './programs/judge-options.js';
import { spelledOptions } from './programs/read-options.js';
import type { ProgramSpec } from './programs/program-spec.js';

/** Programs refused whatever the allowlist says: they run arbitrary code or change who runs it. */
export const NEVER: ReadonlySet<string> = new Set(PROGRAM_SPECS.filter((spec) => spec.refused === 'never').map((spec) => spec.name));

/** Programs that run a command whose words Toolwright never sees, with the reason each is refused. */
export const OPAQUE: Readonly<Record<string, string>> = Object.fromEntries(
  PROGRAM_SPECS.flatMap((spec) =>
    spec.refused === 'builds-commands' || spec.refused === 'reruns-through-shell'
      ? [[spec.name, describeRefusal({ program: spec.name, class: spec.refused })]]
      : [],
  ),
);

/** Wrappers judged by the command they run: how many of their own words to skip, or why not. */
export const WRAPPERS: Readonly<Record<string, (args: readonly string[]) => number | string>> = Object.fromEntries(
  PROGRAM_SPECS.filter((spec) => spec.role === 'wrapper').map((spec) => [spec.name, (args: readonly string[]) => wrapperSkip(spec, args)]),
);

/** Programs that never write files (with the options the judge lets through). */
export const READERS: ReadonlySet<string> = new Set(PROGRAM_SPECS.filter((spec) => spec.role === 'reader').map((spec) => spec.name));

/** Programs whose configuration is read from the workspace before the line runs (by `gitConfigGuard`). */
export const CONFIG_GUARDED: ReadonlySet<string> = new Set(PROGRAM_SPECS.filter((spec) => spec.configGuard !== undefined).map((spec) => spec.name));

function wrapperSkip(spec: ProgramSpec, args: readonly string[]): number | string {
  const refused = judgeOptions(spec.name, spec, args);
  if (refused) return describeRefusal(refused);
  const { end } = readArguments(spec, args);
  return (args[end] === '--' ? end + 1 : end) + (spec.leadingOperands ?? 0);
}

/** Why `name` never runs, whatever its arguments, or undefined. */
export function refusedProgram(name: string): string | undefined {
  const refused = programSpec(name)?.refused;
  return refused === undefined ? undefined : describeRefusal({ program: name, class: refused });
}

/** Why these arguments make `program` dangerous, or undefined. `args` are the words after the program name. */
export function dangerousOption(program: string, args: readonly string[]): string | undefined {
  const refused = judgeOptions(program, programSpec(program), args);
  return refused && describeRefusal(refused);
}

/** The sources `program` copies as whole trees with these arguments (each to be checked for protected paths), or undefined. */
export function copiedTreeSources(program: string, args: readonly string[]): string[] | undefined {
  return copiedTrees(programSpec(program), args);
}

/** Programs that make or move symbolic links whatever their options, where a configuration allows them. */
const LINK_MAKERS: ReadonlySet<string> = new Set(['ln', 'mv', 'tar', 'bsdtar', 'unzip', 'rsync', 'cpio', 'pax', '7z', '7za']);

/** Programs that open no path their arguments name: they may share a line with anything. */
const PATHLESS: ReadonlySet<string> = new Set(['echo', 'printf', 'true', 'false', 'sleep', 'seq', 'yes', 'pwd', 'basename', 'dirname']);

/**
 * Whether `program`, with the words after it, may copy symbolic links as links or make them (`cp -P`, `cp -r`,
 * `ln -s`): undefined if not, else the option that makes it so (none for a program that always may).
 */
export function linkMaking(program: string, args: readonly string[]): { option?: string } | undefined {
  if (LINK_MAKERS.has(program)) return {};
  const spec = programSpec(program);
  if (!spec?.options.some((option) => option.makesLinks)) return undefined;
  // Every option each word may spell, as the refusal search reads them (values included): erring towards more.
  const grammar = grammarFor(spec, args);
  for (const word of args) {
    const found = spelledOptions(word, grammar).find(({ option }) => option.makesLinks === true);
    if (found) return { option: found.name };
  }
  return undefined;
}

/**
 * Why a command line may not run a command that makes symbolic links beside others: every path of the line is judged
 * against the files as they are before it runs, so a link made by one command (`cp -P node_modules/@s/pkg L`: a
 * relative link copied to another folder points elsewhere, out of the workspace too) would be gone through unjudged
 * by another (`&& cat L/package.json`, `cd L`, `touch L`; one running beside it, `tail -F L/x &`, too). Found by a
 * red-team pass: with the sandbox off it read and wrote outside. Such a command runs in a call of its own (programs
 * that open no path aside); the next call is judged with its links there, and follows them. Undefined when fine.
 * `commands`: each command's program and its words from the start (wrappers included, as the analysis gives them).
 */
export function linkOrderProblem(commands: readonly { readonly program: string; readonly argv: readonly string[] }[]): string | undefined {
  for (const maker of commands) {
    const other = commands.find((command) => command !== maker && !PATHLESS.has(command.program));
    if (other === undefined) continue;
    // Read after every word naming the program: a wrapper's own words come before it.
    for (const [index, word] of maker.argv.entries()) {
      if (word !== maker.program && !word.endsWith(`/${maker.program}`)) continue;
      const making = linkMaking(maker.program, maker.argv.slice(index + 1));
      if (making) return describeRefusal({ program: maker.program, ...making, class: 'makes-links-beside', guarded: other.program });
    }
  }
  return undefined;
}

/**
 * Why a command line may not run git (or another program with a `configGuard`): its repository
 * configuration is read before the line runs, so nothing that may write files may run before it or
 * beside it in a pipeline (`cp x .git/config; git status` would be judged on the old
 * configuration). Undefined when the line is fine.
 */
export function gitOrderProblem(programs: readonly string[]): string | undefined {
  const last = programs.findLastIndex((program) => CONFIG_GUARDED.has(program));
  if (last === -1) return undefined;
  const writer = programs.slice(0, last).find((program) => !READERS.has(program));
  return writer === undefined ? undefined : describeRefusal({ program: writer, class: 'runs-before-config-check', guarded: programs[last]! });
}
