import path from 'node:path';
import type { SyntaxNode } from './bash-parser.js';
import { expandGlob } from './glob-expansion.js';
import { copiesTrees, dangerousOption, NEVER, OPAQUE, WRAPPERS } from './program-rules.js';
import type { ShellConstruct, ShellPolicy } from './shell-policy.js';
import { expandWord, quoteWord, type WordContext } from './shell-word.js';
import { deceptiveCharacter, isWellFormed } from '../workspace/text-rules.js';

/** One simple command after expansion and unwrapping, as it will run. */
export interface SimpleCommand {
  /** The words the program receives: quotes removed, permitted variables and globs expanded. */
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
  /** Why copying the tree at `value` is refused (it holds a protected path such as `.git/`) — or undefined. */
  checkTree?(value: string, cwd: string): string | undefined;
  /** Where `value` leads from `cwd`, as the kernel resolves it (symbolic links before `..`). */
  locate?(value: string, cwd: string): string;
}

/**
 * The verdict on a command line. When it is accepted, `script` is what runs: the same command line
 * rebuilt from the judged words, each single-quoted, so bash receives exactly the argv that was
 * judged (no glob, variable or quote is expanded a second time).
 */
export type CommandVerdict =
  | {
    ok: true;
    commands: SimpleCommand[];
    script: string;
    /** `NAME=value` and `export NAME=value` statements, in order (the session backend keeps them). */
    assignments: Array<[string, string]>;
    /** Every directory a command may run in (the start, and each `cd` target). */
    cwds: string[];
  }
  | { ok: false; reason: string; at?: string };

/** Operators that join simple commands and never run anything themselves. */
const JOINERS = new Set(['&&', '||', ';', '|', '\n', ';;']);

/**
 * Judges a parsed command line. Accepted: simple commands joined by `&&`, `||`, `;`, `|` and
 * newlines. Refused unless the policy permits them: redirections, variable expansion, globs.
 * Always refused: command and process substitution, subshells, groups, functions, loops and
 * conditionals, heredocs, environment assignments, background `&`, brace and tilde expansion, and
 * any parse error. Globs are expanded here against the workspace, and permitted variables from
 * `variables`, so each simple command is judged (`judgeCommand`) on the words it will receive.
 */
export function analyzeCommand(root: SyntaxNode, policy: ShellPolicy, confinement: PathConfinement, variables: ReadonlyMap<string, string> = new Map()): CommandVerdict {
  // Every directory the shell may be in when a command runs: the start, and each `cd` target seen
  // so far (a `cd` may or may not have run, after `||` or a failure). Paths are judged from all;
  // globs are expanded from the latest (where the line runs when every `cd` succeeded).
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
    checkTree: (value) => {
      for (const cwd of cwds) {
        const refused = confinement.checkTree?.(value, cwd);
        if (refused) return refused;
      }
      return undefined;
    },
  };
  if (root.hasError) return { ok: false, reason: 'the command does not parse as bash (unbalanced quotes, brackets or an operator without a command); fix its syntax' };
  const permit = new Set<ShellConstruct>(policy.permit ?? []);
  const wordContext: WordContext = { permit, variables: new Map(variables) };
  const literalOnly: WordContext = { permit: new Set(), variables: new Map() };
  const commands: SimpleCommand[] = [];
  const assignments: Array<[string, string]> = [];
  const out: string[] = [];
  const maxCommands = policy.maxCommands ?? 16;

  /** The words a word node becomes: one, or a glob's matches. */
  const words = (node: SyntaxNode, context: WordContext): { ok: true; words: string[]; expanded: boolean } | { ok: false; reason: string } => {
    const word = expandWord(node, context);
    if (!word.ok) return word;
    if (word.pattern === undefined) return { ok: true, words: [word.value], expanded: word.fromVariable };
    const cwd = cwds[cwds.length - 1]!;
    const globbed = expandGlob(word.pattern, word.value, cwd, (dir) => confinement.check(dir, cwd));
    return globbed.ok ? { ok: true, words: globbed.words, expanded: true } : globbed;
  };

  const assignment = (node: SyntaxNode): string | undefined => {
    const name = node.childForFieldName('name')?.text ?? '';
    const valueNode = node.childForFieldName('value');
    if (node.text.includes('+=')) return `appending to variables ('${node.text}') is not allowed`;
    const value = valueNode ? expandWord(valueNode, literalOnly) : { ok: true as const, value: '' };
    if (!value.ok) return value.reason;
    const problem = judgeAssignment(name, value.value);
    if (problem) return problem;
    assignments.push([name, value.value]);
    (wordContext.variables as Map<string, string>).set(name, value.value);
    return undefined;
  };

  const visitStatement = (node: SyntaxNode): string | undefined => {
    switch (node.type) {
      case 'program': case 'list': case 'pipeline': {
        let needsSeparator = false;
        for (const child of node.children) {
          if (!child) continue;
          if (!child.isNamed) {
            if (child.type === '&') return 'running a command in the background with & is not allowed; use background: true instead';
            if (child.type === '|&') return "the |& operator is not allowed; use '2>&1 |'";
            if (!JOINERS.has(child.type)) return `the operator '${child.type}' is not allowed`;
            out.push(child.type === '\n' ? '\n' : ` ${child.type} `);
            needsSeparator = false;
            continue;
          }
          if (child.type === 'comment') continue;
          // Statements on separate lines have no operator token between them.
          if (needsSeparator) out.push('\n');
          const problem = visitStatement(child);
          if (problem) return problem;
          needsSeparator = true;
        }
        return undefined;
      }
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        if (!body) return 'a redirection without a command is not allowed';
        const problem = visitStatement(body);
        if (problem) return problem;
        for (const redirect of node.childrenForFieldName('redirect')) {
          if (!redirect) continue;
          const rendered = judgeRedirect(redirect, permit, confine);
          if (!rendered.ok) return rendered.reason;
          out.push(` ${rendered.text}`);
        }
        return undefined;
      }
      case 'command': {
        if (commands.length >= maxCommands) return `the command line has more than ${maxCommands} commands; split it into several calls`;
        const argv: string[] = [];
        const redirects: string[] = [];
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (child.type === 'variable_assignment') return `setting environment variables ('${child.text}') is not allowed`;
          if (child.type === 'file_redirect' || child.type === 'herestring_redirect') {
            const rendered = judgeRedirect(child, permit, confine);
            if (!rendered.ok) return rendered.reason;
            redirects.push(rendered.text);
            continue;
          }
          const isName = child.type === 'command_name';
          const target = isName ? child.firstNamedChild : child;
          if (!target) return 'an empty command name is not allowed';
          const expanded = words(target, isName ? literalOnly : wordContext);
          if (!expanded.ok) return expanded.reason;
          argv.push(...expanded.words);
        }
        if (argv.length === 0) return 'an empty command is not allowed';
        const judged = judgeCommand(argv, policy, confine);
        if (!judged.ok) return judged.reason;
        if (judged.program === 'cd') {
          const targets = argv.slice(1).filter((w) => w !== '--' && w !== '-P' && w !== '-L');
          if (targets.length !== 1 || targets[0] === '-') return "cd needs exactly one directory inside the workspace ('cd' alone and 'cd -' are not allowed)";
          const refused = confine.check(targets[0]!, confine.root);
          if (refused) return `cd to '${targets[0]}' is refused: ${refused}`;
          for (const cwd of [...cwds]) cwds.push(confinement.locate?.(targets[0]!, cwd) ?? path.resolve(cwd, targets[0]!));
          if (cwds.length > 64) return 'too many cd commands in one command line; split it into several calls';
        }
        commands.push({ argv, program: judged.program, text: node.text });
        out.push([...argv.map(quoteWord), ...redirects].join(' '));
        return undefined;
      }
      case 'declaration_command': {
        const keyword = node.child(0)?.type;
        if (keyword !== 'export' || !permit.has('assignment')) return `'${keyword ?? 'declare'}' is not allowed`;
        const children = node.namedChildren.filter((c) => c !== null);
        if (children.length === 0) return 'export needs NAME=value';
        const first = assignments.length;
        for (const child of children) {
          if (child.type !== 'variable_assignment') return `export takes NAME=value, not '${child.text}'`;
          const problem = assignment(child);
          if (problem) return problem;
        }
        const rendered = assignments.slice(first).map(([name, value]) => `${name}=${quoteWord(value)}`);
        commands.push({ argv: ['export', ...rendered], program: 'export', text: node.text });
        out.push(`export ${rendered.join(' ')}`);
        return undefined;
      }
      case 'variable_assignment': case 'variable_assignments': {
        if (!permit.has('assignment')) return `setting shell variables ('${node.text}') is not allowed`;
        const list = node.type === 'variable_assignment' ? [node] : node.namedChildren.filter((c) => c !== null);
        const first = assignments.length;
        for (const child of list) {
          const problem = assignment(child);
          if (problem) return problem;
        }
        const rendered = assignments.slice(first).map(([name, value]) => `${name}=${quoteWord(value)}`);
        commands.push({ argv: rendered, program: 'assignment', text: node.text });
        out.push(rendered.join(' '));
        return undefined;
      }
      case 'negated_command': return "negation with '!' is not allowed";
      case 'subshell': return 'subshells ( ... ) are not allowed; run the commands directly';
      case 'compound_statement': return 'command groups { ...; } are not allowed';
      case 'function_definition': return 'defining shell functions is not allowed';
      case 'for_statement': case 'c_style_for_statement': case 'while_statement': case 'if_statement': case 'case_statement':
        return 'loops and conditionals are not allowed; run one command per step';
      case 'heredoc_redirect': return 'here-documents are not allowed';
      case 'comment': return undefined;
      default: return `'${node.type.replace(/_/g, ' ')}' constructs are not allowed`;
    }
  };

  const problem = visitStatement(root);
  if (problem) return { ok: false, reason: problem };
  if (commands.length === 0) return { ok: false, reason: 'the command is empty' };
  return { ok: true, commands, script: out.join(''), assignments, cwds: [...new Set(cwds)] };
}

/**
 * Variables a command may never set: they change what runs, where, or which configuration or code a
 * program loads (PATH and every *PATH such as GCONV_PATH or RIPGREP_CONFIG_PATH, LD_PRELOAD,
 * BASH_ENV, IFS, *_OPTIONS, *CONFIG*, *RC, editors and pagers, language runtimes' variables, ...).
 */
const UNSAFE_VARIABLE = /^(?:PATH|HOME|IFS|ENV|SHELL|TMPDIR|OLDPWD|PWD|SHLVL|CDPATH|GLOBIGNORE|PROMPT_COMMAND|PS[0-4]|BROWSER|MAGIC|NLSPATH|HOSTALIASES|LOCPATH|RESOLV_.*|BASH.*|SHELLOPTS|LD_.*|DYLD_.*|GLIBC_.*|MALLOC_.*|GCONV_.*|GIT_.*|NODE_.*|NPM_.*|PYTHON.*|PERL.*|RUBY.*|JAVA_.*|_JAVA_.*|LESS.*|GREP_.*|TAR_.*|SSH_.*|GNUPG.*|GPG_.*|XDG_.*|TERMINFO.*|.*PATH|.*_OPTIONS|.*_OPTS|.*OPT|.*CONFIG.*|.*_HOME|.*RC|.*EDITOR|.*PAGER|.*_PROXY)$/i;

/** `NAME=value` with a safe upper-case name and a literal value. */
export function judgeAssignment(name: string, value: string | undefined): string | undefined {
  if (!/^[A-Z][A-Z0-9_]*$/.test(name)) return `only upper-case variable names may be set, not '${name}'`;
  if (UNSAFE_VARIABLE.test(name)) return `the variable ${name} cannot be set: it changes what commands run`;
  if (value !== undefined && /[\0\n]/.test(value)) return `the value of ${name} contains a NUL or newline`;
  return undefined;
}

/** `2>&1` and `>/dev/null` are always fine; other redirections need the `redirection` permit and a workspace path. */
function judgeRedirect(node: SyntaxNode, permit: Set<ShellConstruct>, confine: PathConfinement): { ok: true; text: string } | { ok: false; reason: string } {
  const literal: WordContext = { permit: new Set(), variables: new Map() };
  if (node.type === 'heredoc_redirect') return { ok: false, reason: 'here-documents are not allowed' };
  if (node.type === 'herestring_redirect') {
    if (!permit.has('redirection')) return { ok: false, reason: 'here-strings (<<<) are not allowed' };
    const content = node.namedChildren.find((c) => c !== null);
    const word = content ? expandWord(content, literal) : { ok: true as const, value: '' };
    return word.ok ? { ok: true, text: `<<< ${quoteWord(word.value)}` } : word;
  }
  const destination = node.childForFieldName('destination');
  const operator = node.children.find((c) => c && !c.isNamed)?.type ?? '';
  const descriptor = node.children.find((c) => c?.type === 'file_descriptor')?.text ?? '';
  if (!destination || !/^(?:>|>>|<|&>|&>>|>&|<&|>\|)$/.test(operator) || !/^\d?$/.test(descriptor)) return { ok: false, reason: `the redirection '${node.text}' is not allowed` };
  if ((operator === '>&' || operator === '<&') && /^[0-2]$/.test(destination.text)) return { ok: true, text: `${descriptor}${operator}${destination.text}` };
  const word = expandWord(destination, literal);
  if (!word.ok) return { ok: false, reason: `${word.reason} (in the redirection '${node.text}')` };
  const rendered = `${descriptor}${operator} ${quoteWord(word.value)}`;
  if (word.value === '/dev/null' && operator !== '<&' && operator !== '>&') return { ok: true, text: rendered };
  if (!permit.has('redirection')) return { ok: false, reason: `redirection ('${node.text}') is not allowed; use file_write to write files, or ask for the 'redirection' permit` };
  const refused = confine.check(word.value, confine.root);
  return refused ? { ok: false, reason: `the redirection target is refused: ${refused}` } : { ok: true, text: rendered };
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
    if (OPAQUE[name]) return { ok: false, reason: OPAQUE[name] };
    const unwrap = WRAPPERS[name];
    if (unwrap) {
      if (name === 'env' && words.slice(1).some((a) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(a))) return { ok: false, reason: "setting environment variables through 'env' is not allowed" };
      const skip = unwrap(words.slice(1));
      if (typeof skip === 'string') return { ok: false, reason: skip };
      if (1 + skip >= words.length) return { ok: false, reason: `'${name}' must name the command it runs` };
      words = words.slice(1 + skip);
      continue;
    }
    if (!allowed(name, words, policy)) {
      return { ok: false, reason: `'${[name, ...words.slice(1, 2)].join(' ')}' is not in the shell allowlist (${policy.allow.slice(0, 12).join(', ')}${policy.allow.length > 12 ? ', ...' : ''})` };
    }
    const option = dangerousOption(name, words.slice(1));
    if (option) return { ok: false, reason: option };
    let operands = false;
    for (const arg of words.slice(1)) {
      const refused = judgeArgument(arg, confine, operands);
      if (refused) return { ok: false, reason: `the argument '${arg}' is refused: ${refused}` };
      if (arg === '--') operands = true;
    }
    if (copiesTrees(name, words.slice(1))) {
      for (const source of words.slice(1).filter((a) => !a.startsWith('-'))) {
        const refused = confine.checkTree?.(source, confine.root);
        if (refused) return { ok: false, reason: `${name} would copy '${source}': ${refused}` };
      }
    }
    return { ok: true, program: name };
  }
  return { ok: false, reason: 'too many nested wrappers' };
}

/**
 * Every argument may name a file, so each is confined to the workspace, through symlinks too, and
 * may not name a protected path: a plain word as it is; after `--` every word, dashes or not (they
 * are operands); a long option as a whole when it holds a `/` (`--x/../../etc`), and its value after
 * `=`; every tail of a short-option cluster, where a value may be glued on (`-f/etc/passwd`,
 * `-t.git`). Invisible bidi and C1 control characters are refused in every argument: a program
 * could make a file whose name displays as another.
 */
function judgeArgument(arg: string, confine: PathConfinement, operand: boolean): string | undefined {
  const deceptive = deceptiveCharacter(arg);
  if (deceptive) return `it contains ${deceptive}, an invisible control character that changes how text is displayed`;
  if (!isWellFormed(arg)) return 'it contains a lone UTF-16 surrogate';
  if (arg === '' || arg === '-' || (arg === '--' && !operand)) return undefined;
  if (operand || !arg.startsWith('-')) return confine.check(arg, confine.root);
  const eq = arg.indexOf('=');
  if (eq !== -1 && eq + 1 < arg.length) {
    const refused = confine.check(arg.slice(eq + 1), confine.root);
    if (refused) return refused;
  }
  if (arg.startsWith('--')) return arg.includes('/') ? confine.check(eq === -1 ? arg : arg.slice(0, eq), confine.root) : undefined;
  for (let i = 2; i < arg.length; i++) {
    const tail = arg.slice(i);
    if (tail === '/') continue;
    const refused = confine.check(tail, confine.root);
    if (refused) return refused;
  }
  return undefined;
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
