import path from 'node:path';
import type { SyntaxNode } from './bash-parser.js';
import type { ShellConstruct, ShellPolicy } from './shell-policy.js';

/** One simple command after unwrapping, as it will run. */
export interface SimpleCommand {
  /** The words as bash will pass them (quotes removed). */
  argv: string[];
  /** The program judged against the allowlist (after `env`, `timeout`, ... are unwrapped). */
  program: string;
  text: string;
}

/** How arguments that name files are confined: `check` returns why a path is refused, if it is. */
export interface PathConfinement {
  root: string;
  /** The shell's working directory when the command starts (default: the root). */
  cwd?: string;
  /** Why `value`, read from the directory `cwd`, is refused — or undefined. */
  check(value: string, cwd: string): string | undefined;
}

export type CommandVerdict =
  | { ok: true; commands: SimpleCommand[] }
  | { ok: false; reason: string; at?: string };

/** Operators that join simple commands and never run anything themselves. */
const JOINERS = new Set(['&&', '||', ';', '|', '\n', ';;']);
/** Wrappers judged by the command they run, with how many arguments of their own to skip. */
const WRAPPERS: Record<string, (args: string[]) => number | undefined> = {
  env: (args) => skipWhile(args, (a) => a.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(a), ['-u', '--unset', '-C', '--chdir', '-S', '--split-string']),
  timeout: (args) => { const i = skipWhile(args, (a) => a.startsWith('-'), ['-s', '--signal', '-k', '--kill-after']); return i === undefined ? undefined : i + 1; },
  nice: (args) => skipWhile(args, (a) => a.startsWith('-'), ['-n', '--adjustment']),
  nohup: () => 0,
  xargs: (args) => skipWhile(args, (a) => a.startsWith('-'), ['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-lines', '--replace']),
  command: (args) => skipWhile(args, (a) => a === '-p' || a === '--'),
};
/** Programs refused whatever the allowlist says: they run arbitrary code or change who runs it. */
const NEVER = new Set(['sudo', 'su', 'doas', 'pkexec', 'eval', 'exec', 'source', '.', 'bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh', 'builtin', 'trap', 'alias', 'unalias', 'set', 'export', 'declare', 'typeset', 'readonly', 'local', 'enable', 'chroot', 'setsid', 'unshare', 'nsenter']);

/**
 * Judges a parsed command line. Accepted: simple commands of literal words joined by `&&`, `||`,
 * `;`, `|` and newlines. Refused unless the policy permits them: redirections, variable expansion,
 * globs. Always refused: command and process substitution, subshells, groups, functions, loops and
 * conditionals, heredocs, environment assignments, background `&`, brace and tilde expansion, and
 * any parse error. Then each simple command is judged on its own (`judgeCommand`).
 */
export function analyzeCommand(root: SyntaxNode, policy: ShellPolicy, confinement: PathConfinement): CommandVerdict {
  // Every directory the shell may be in when a command runs: the start, and each `cd` target seen
  // so far (a `cd` may or may not have run, after `||` or a failure). Paths are judged from all.
  const cwds = [confinement.cwd ?? confinement.root];
  const confine: PathConfinement = {
    root: confinement.root,
    check: (value) => {
      for (const cwd of cwds) {
        const refused = confinement.check(value, cwd);
        if (refused) return refused;
      }
      return undefined;
    },
  };
  if (root.hasError) return { ok: false, reason: 'the command does not parse as bash (unbalanced quotes, brackets or an operator without a command); fix its syntax' };
  const permit = new Set<ShellConstruct>(policy.permit ?? []);
  const commands: SimpleCommand[] = [];
  const maxCommands = policy.maxCommands ?? 16;

  const visitStatement = (node: SyntaxNode): string | undefined => {
    switch (node.type) {
      case 'program': case 'list': case 'pipeline': {
        for (const child of node.children) {
          if (!child) continue;
          if (!child.isNamed) {
            if (child.type === '&') return 'running a command in the background with & is not allowed; use background: true instead';
            if (child.type === '|&') return "the |& operator is not allowed; use '2>&1 |'";
            if (!JOINERS.has(child.type)) return `the operator '${child.type}' is not allowed`;
            continue;
          }
          if (child.type === 'comment') continue;
          const problem = visitStatement(child);
          if (problem) return problem;
        }
        return undefined;
      }
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        for (const redirect of node.childrenForFieldName('redirect')) {
          if (!redirect) continue;
          const problem = judgeRedirect(redirect, permit, confine);
          if (problem) return problem;
        }
        return body ? visitStatement(body) : 'a redirection without a command is not allowed';
      }
      case 'command': {
        if (commands.length >= maxCommands) return `the command line has more than ${maxCommands} commands; split it into several calls`;
        const words: string[] = [];
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (child.type === 'variable_assignment') return `setting environment variables ('${child.text}') is not allowed`;
          if (child.type === 'file_redirect' || child.type === 'herestring_redirect') {
            const problem = judgeRedirect(child, permit, confine);
            if (problem) return problem;
            continue;
          }
          const target = child.type === 'command_name' ? child.firstNamedChild : child;
          if (!target) return 'an empty command name is not allowed';
          const word = literalWord(target, permit);
          if (!word.ok) return word.reason;
          words.push(word.value);
        }
        if (words.length === 0) return 'an empty command is not allowed';
        const judged = judgeCommand(words, policy, confine);
        if (!judged.ok) return judged.reason;
        if (judged.program === 'cd') {
          const targets = words.slice(1).filter((w) => w !== '--' && w !== '-P' && w !== '-L');
          if (targets.length !== 1 || targets[0] === '-') return "cd needs exactly one directory inside the workspace ('cd' alone and 'cd -' are not allowed)";
          for (const cwd of [...cwds]) cwds.push(path.resolve(cwd, targets[0]!));
          if (cwds.length > 64) return 'too many cd commands in one command line; split it into several calls';
        }
        commands.push({ argv: words, program: judged.program, text: node.text });
        return undefined;
      }
      case 'declaration_command': {
        const keyword = node.child(0)?.type;
        if (keyword !== 'export' || !permit.has('assignment')) return `'${keyword ?? 'declare'}' is not allowed`;
        const assignments = node.namedChildren.filter((c) => c !== null);
        if (assignments.length === 0) return 'export needs NAME=value';
        for (const child of assignments) {
          if (child.type !== 'variable_assignment') return `export takes NAME=value, not '${child.text}'`;
          const problem = judgeAssignmentNode(child);
          if (problem) return problem;
        }
        commands.push({ argv: ['export', ...assignments.map((c) => c.text)], program: 'export', text: node.text });
        return undefined;
      }
      case 'negated_command': return "negation with '!' is not allowed";
      case 'subshell': return 'subshells ( ... ) are not allowed; run the commands directly';
      case 'compound_statement': return 'command groups { ...; } are not allowed';
      case 'function_definition': return 'defining shell functions is not allowed';
      case 'for_statement': case 'c_style_for_statement': case 'while_statement': case 'if_statement': case 'case_statement':
        return 'loops and conditionals are not allowed; run one command per step';
      case 'variable_assignment': {
        if (!permit.has('assignment')) return `setting shell variables ('${node.text}') is not allowed`;
        const problem = judgeAssignmentNode(node);
        if (!problem) commands.push({ argv: [node.text], program: 'assignment', text: node.text });
        return problem;
      }
      case 'variable_assignments': {
        if (!permit.has('assignment')) return `setting shell variables ('${node.text}') is not allowed`;
        for (const child of node.namedChildren) {
          const problem = child ? judgeAssignmentNode(child) : undefined;
          if (problem) return problem;
        }
        commands.push({ argv: [node.text], program: 'assignment', text: node.text });
        return undefined;
      }
      case 'heredoc_redirect': return 'here-documents are not allowed';
      case 'comment': return undefined;
      default: return `'${node.type.replace(/_/g, ' ')}' constructs are not allowed`;
    }
  };

  const problem = visitStatement(root);
  if (problem) return { ok: false, reason: problem };
  if (commands.length === 0) return { ok: false, reason: 'the command is empty' };
  return { ok: true, commands };
}

type Word = { ok: true; value: string } | { ok: false; reason: string };

/** Variables a command may never set: they change what runs or where (PATH, LD_PRELOAD, BASH_ENV, IFS, ...). */
const UNSAFE_VARIABLE = /^(PATH|HOME|IFS|ENV|BASH_ENV|BASH_.*|BASHOPTS|SHELLOPTS|PS[0-4]|PROMPT_COMMAND|CDPATH|GLOBIGNORE|LD_.*|DYLD_.*|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PERL5LIB|PERL5OPT|RUBYOPT|GIT_.*|PAGER|EDITOR|VISUAL|SHELL|TMPDIR|.*_PROXY|.*_proxy|OLDPWD|PWD)$/;

/** `NAME=value` with a safe upper-case name and a literal value. */
export function judgeAssignment(name: string, value: string | undefined): string | undefined {
  if (!/^[A-Z][A-Z0-9_]*$/.test(name)) return `only upper-case variable names may be set, not '${name}'`;
  if (UNSAFE_VARIABLE.test(name)) return `the variable ${name} cannot be set: it changes what commands run`;
  if (value !== undefined && /[\0\n]/.test(value)) return `the value of ${name} contains a NUL or newline`;
  return undefined;
}

function judgeAssignmentNode(node: SyntaxNode): string | undefined {
  const name = node.childForFieldName('name')?.text ?? '';
  const valueNode = node.childForFieldName('value');
  const value = valueNode ? literalWord(valueNode, new Set()) : { ok: true as const, value: '' };
  if (!value.ok) return value.reason;
  if (node.text.includes('+=')) return `appending to variables ('${node.text}') is not allowed`;
  return judgeAssignment(name, value.value);
}

/** A word as bash passes it, or why it is not a literal (substitution, expansion, ...). */
function literalWord(node: SyntaxNode, permit: Set<ShellConstruct>): Word {
  switch (node.type) {
    case 'word': case 'number': {
      const text = node.text;
      if (text.startsWith('~')) return { ok: false, reason: `tilde expansion ('${text}') is not allowed; write the path relative to the workspace` };
      if (/[{}]/.test(text)) return { ok: false, reason: `brace expansion ('${text}') is not allowed; quote the braces or list the words` };
      if (/[*?[]/.test(text.replace(/\\./g, '')) && !permit.has('glob')) return { ok: false, reason: `globs ('${text}') are not allowed here; list the files or use the glob tool` };
      return { ok: true, value: text.replace(/\\(.)/gs, '$1') };
    }
    case 'raw_string': return { ok: true, value: node.text.slice(1, -1) };
    case 'string': {
      let value = '';
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === 'string_content') value += child.text.replace(/\\([$`"\\\n])/g, '$1');
        else if ((child.type === 'simple_expansion' || child.type === 'expansion') && permit.has('variable-expansion')) value += child.text;
        else return refusedPart(child);
      }
      return { ok: true, value };
    }
    case 'concatenation': {
      let value = '';
      for (const child of node.namedChildren) {
        if (!child) continue;
        const part = literalWord(child, permit);
        if (!part.ok) return part;
        value += part.value;
      }
      if (/[{}]/.test(node.text.replace(/'[^']*'|"[^"]*"/g, ''))) return { ok: false, reason: `brace expansion ('${node.text}') is not allowed` };
      return { ok: true, value };
    }
    case 'simple_expansion': case 'expansion':
      return permit.has('variable-expansion') ? { ok: true, value: node.text } : refusedPart(node);
    default: return refusedPart(node);
  }
}

function refusedPart(node: SyntaxNode): { ok: false; reason: string } {
  switch (node.type) {
    case 'command_substitution': return { ok: false, reason: `command substitution ('${node.text}') is not allowed; run that command on its own first` };
    case 'process_substitution': return { ok: false, reason: `process substitution ('${node.text}') is not allowed` };
    case 'simple_expansion': case 'expansion': return { ok: false, reason: `variable expansion ('${node.text}') is not allowed; write the value itself` };
    case 'arithmetic_expansion': return { ok: false, reason: `arithmetic expansion ('${node.text}') is not allowed` };
    case 'ansi_c_string': case 'translated_string': return { ok: false, reason: `$'...' and $"..." strings are not allowed; use plain quotes` };
    default: return { ok: false, reason: `'${node.text}' (${node.type.replace(/_/g, ' ')}) is not allowed in a command` };
  }
}

/** `2>&1` and `>/dev/null` are always fine; other redirections need the `redirection` permit and a workspace path. */
function judgeRedirect(node: SyntaxNode, permit: Set<ShellConstruct>, confine: PathConfinement): string | undefined {
  if (node.type === 'heredoc_redirect') return 'here-documents are not allowed';
  if (node.type === 'herestring_redirect') return permit.has('redirection') ? undefined : 'here-strings (<<<) are not allowed';
  const destination = node.childForFieldName('destination');
  const operator = node.children.find((c) => c && !c.isNamed)?.type ?? '';
  if (!destination) return `the redirection '${node.text}' is not allowed`;
  if ((operator === '>&' || operator === '<&') && /^[0-2]$/.test(destination.text)) return undefined;
  if (destination.text === '/dev/null' && /^(?:>|>>|&>|2>)$/.test(operator)) return undefined;
  if (!permit.has('redirection')) return `redirection ('${node.text}') is not allowed; use file_write to write files, or ask for the 'redirection' permit`;
  const word = literalWord(destination, new Set());
  if (!word.ok) return word.reason;
  const refused = confine.check(word.value, confine.root);
  return refused ? `the redirection target is refused: ${refused}` : undefined;
}

/** Judges one simple command's words; returns the program it runs. */
export function judgeCommand(argv: string[], policy: ShellPolicy, confine: PathConfinement): { ok: true; program: string } | { ok: false; reason: string } {
  let words = argv;
  for (let depth = 0; depth < 8; depth++) {
    const name = programName(words[0]!, confine);
    if (name === undefined) return { ok: false, reason: `'${words[0]}' is a program outside the workspace and the system paths` };
    if (name === 'export' && policy.permit?.includes('assignment')) {
      for (const arg of words.slice(1)) {
        const eq = arg.indexOf('=');
        const problem = eq <= 0 ? `export takes NAME=value, not '${arg}'` : judgeAssignment(arg.slice(0, eq), arg.slice(eq + 1));
        if (problem) return { ok: false, reason: problem };
      }
      return words.length > 1 ? { ok: true, program: 'export' } : { ok: false, reason: 'export needs NAME=value' };
    }
    if (NEVER.has(name)) return { ok: false, reason: `'${name}' is never allowed: it runs arbitrary code or changes privileges` };
    const unwrap = WRAPPERS[name];
    if (unwrap) {
      const skip = unwrap(words.slice(1));
      if (name === 'env' && words.slice(1).some((a) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(a))) return { ok: false, reason: "setting environment variables through 'env' is not allowed" };
      if (skip === undefined || 1 + skip >= words.length) {
        if (name === 'xargs' || name === 'env' || name === 'command') return { ok: false, reason: `'${name}' must name the command it runs` };
        return { ok: false, reason: `'${name}' needs a command to run` };
      }
      words = words.slice(1 + skip);
      continue;
    }
    if (!allowed(name, words, policy)) {
      return { ok: false, reason: `'${[name, ...words.slice(1, 2)].join(' ')}' is not in the shell allowlist (${policy.allow.slice(0, 12).join(', ')}${policy.allow.length > 12 ? ', ...' : ''})` };
    }
    const flag = dangerousFlag(name, words.slice(1));
    if (flag) return { ok: false, reason: flag };
    // Every argument that is not an option is treated as a possible path: it must stay inside the
    // workspace, through symlinks too (a link to /etc is refused like /etc itself).
    for (const arg of words.slice(1)) {
      const value = arg.startsWith('-') ? /^--?[A-Za-z][A-Za-z-]*=(.*)$/s.exec(arg)?.[1] : arg;
      if (value === undefined || value === '' || value === '-') continue;
      const refused = confine.check(value, confine.root);
      if (refused) return { ok: false, reason: `the argument '${arg}' is refused: ${refused}` };
    }
    return { ok: true, program: name };
  }
  return { ok: false, reason: 'too many nested wrappers' };
}

const SYSTEM_DIRS = ['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin'];

function programName(word: string, confine: PathConfinement): string | undefined {
  if (!word.includes('/')) return word;
  const dir = path.posix.dirname(path.posix.normalize(word));
  if (SYSTEM_DIRS.includes(dir)) return path.posix.basename(word);
  return confine.check(word, confine.root) === undefined ? `./${path.posix.normalize(word).replace(/^\.\//, '')}` : undefined;
}

function allowed(name: string, words: string[], policy: ShellPolicy): boolean {
  return policy.allow.some((entry) => {
    const parts = entry.trim().split(/\s+/);
    if (parts[0] !== name) return false;
    return parts.slice(1).every((part, i) => words[i + 1] === part);
  });
}

/** Flags that make a program follow symbolic links, which could lead it out of the workspace. */
const FOLLOWS_LINKS: Record<string, { short: string; long: RegExp }> = {
  grep: { short: 'R', long: /^--dereference-recursive$/ },
  rg: { short: 'L', long: /^--follow$/ },
  find: { short: 'L', long: /^-follow$/ },
  ls: { short: 'L', long: /^--dereference$/ },
  du: { short: 'L', long: /^--dereference$/ },
  tree: { short: 'l', long: /^--follow$/ },
  cp: { short: 'L', long: /^--dereference$/ },
  stat: { short: 'L', long: /^--dereference$/ },
  file: { short: 'L', long: /^--dereference$/ },
  wc: { short: '', long: /^--files0-from/ },
};

/** Flags that turn a harmless program into a command runner or a writer. */
function dangerousFlag(program: string, args: string[]): string | undefined {
  const follows = FOLLOWS_LINKS[program];
  if (follows) {
    const bad = args.find((a) => follows.long.test(a.split('=')[0]!) || (follows.short !== '' && /^-[A-Za-z]+$/.test(a) && a.slice(1).includes(follows.short)));
    if (bad) return `${program} ${bad} is not allowed: it follows symbolic links, which can lead outside the workspace`;
  }
  switch (program) {
    case 'find': {
      const bad = args.find((a) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(a));
      return bad ? `find ${bad} is not allowed: it runs commands or writes files; list the files and act on them with other tools` : undefined;
    }
    case 'git': {
      const bad = args.find((a) => a === '-c' || a.startsWith('--config-env') || a === '-p' || a === '--paginate' || a.startsWith('--exec-path') || a.startsWith('--git-dir') || a.startsWith('--work-tree') || a === '--ext-diff' || a.startsWith('--upload-pack') || a.startsWith('--output'));
      return bad ? `git ${bad} is not allowed: it can run configured programs or touch other repositories` : undefined;
    }
    case 'sed': {
      const scripts: string[] = [];
      let quiet = false;
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (a === '-n' || a === '--quiet' || a === '--silent') quiet = true;
        else if (a === '-E' || a === '-r' || a === '--regexp-extended') continue;
        else if (a === '-e' || a === '--expression') scripts.push(args[++i] ?? '');
        else if (a.startsWith('-')) return `sed ${a} is not allowed: only printing forms (sed -n '10,20p') run`;
        else if (scripts.length === 0) scripts.push(a);
      }
      const printOnly = /^(?:(?:\d+|\$|\/(?:[^/\\]|\\.)*\/)(?:,(?:\d+|\$|\/(?:[^/\\]|\\.)*\/))?)?p$/;
      return quiet && scripts.length > 0 && scripts.every((s) => printOnly.test(s.trim())) ? undefined
        : "only sed's printing form is allowed (sed -n '10,20p' file); use file_edit to change files";
    }
    case 'rg': {
      const bad = args.find((a) => a === '--pre' || a.startsWith('--pre=') || a === '-z' || a === '--search-zip');
      return bad ? `rg ${bad} is not allowed: it runs other programs` : undefined;
    }
    case 'tree': return args.some((a) => a === '-o') ? 'tree -o writes files and is not allowed' : undefined;
    case 'sort': return args.some((a) => a === '-o' || a.startsWith('--output') || a.startsWith('--compress-program')) ? 'sort -o / --compress-program is not allowed' : undefined;
    default: return undefined;
  }
}

function skipWhile(args: string[], isOption: (arg: string) => boolean, takesValue: string[] = []): number | undefined {
  let i = 0;
  while (i < args.length && isOption(args[i]!)) {
    if (args[i] === '--') return i + 1;
    if (takesValue.includes(args[i]!)) i++;
    i++;
  }
  return i <= args.length ? i : undefined;
}
