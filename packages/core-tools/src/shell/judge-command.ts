import path from 'node:path';
import type { PathConfinement } from './command-verdict.js';
import { judgeAssignment } from './judge-assignment.js';
import { copiedTreeSources, dangerousOption, refusedProgram, WRAPPERS } from './program-rules.js';
import { treeReads } from './tree-reads.js';
import { REFUSED_PROGRAMS } from './refused-programs.js';
import { describeRefusal } from './programs/describe-refusal.js';
import type { ShellPolicy } from './shell-policy.js';
import { deceptiveCharacter, isWellFormed } from '../workspace/text-rules.js';

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
    // Builtins with no spec of their own (read, let, ...) are worded like the programs that never run.
    const never = REFUSED_PROGRAMS.has(name) ? describeRefusal({ program: name, class: 'never' }) : refusedProgram(name);
    if (never) return { ok: false, reason: never };
    // Own properties only: a program named `constructor` or `toString` is not a rule.
    const unwrap = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (unwrap) {
      const skip = unwrap(words.slice(1));
      if (typeof skip === 'string') return { ok: false, reason: skip };
      if (1 + skip >= words.length) return { ok: false, reason: `'${name}' must name the command it runs` };
      words = words.slice(1 + skip);
      continue;
    }
    if (!allowed(name, words, policy)) {
      return {
        ok: false,
        reason: `'${[name, ...words.slice(1, 2)].join(' ')}' is not in the shell allowlist (${policy.allow.slice(0, 12).join(', ')}${policy.allow.length > 12 ? ', ...' : ''})`,
      };
    }
    const option = dangerousOption(name, words.slice(1));
    if (option) return { ok: false, reason: option };
    let operands = false;
    for (const arg of words.slice(1)) {
      // After `--` a word is an operand, unless the program took `--` as an option's value (`--src-prefix --
      // --output=/x`): a word that looks like an option is judged both ways.
      const refused = judgeArgument(arg, confine, operands) ?? (operands && arg.startsWith('-') ? judgeArgument(arg, confine, false) : undefined);
      if (refused) return { ok: false, reason: `the argument '${arg}' is refused: ${refused}` };
      if (arg === '--') operands = true;
    }
    for (const source of copiedTreeSources(name, words.slice(1)) ?? []) {
      const refused = confine.checkTree?.(source, confine.root);
      if (refused) return { ok: false, reason: `${name} would copy '${source}': ${refused}` };
    }
    const hidden = readsHidden(name, words.slice(1), confine);
    if (hidden) return { ok: false, reason: hidden };
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

/** Why `program` would read a path a deny rule hides, inside a tree it reads whole (`grep -r KEY .`) — or undefined. */
function readsHidden(program: string, args: string[], confine: PathConfinement): string | undefined {
  if (!confine.checkHidden) return undefined;
  const reads = treeReads(program, args);
  for (const operand of reads.operands) {
    const refused = confine.checkHidden(operand, confine.root);
    if (refused)
      return `${program} would read '${operand}': ${refused}; name the files or directories to read, or use file_search, which leaves hidden paths out`;
  }
  for (const relative of reads.fromRoot) {
    const refused = confine.checkHidden(path.posix.join(confine.root, relative), confine.root);
    if (refused) return `${program} would read '${relative}': ${refused}`;
  }
  if (reads.cwd) {
    const refused = confine.checkHidden('.', confine.root);
    if (refused)
      return `${program} with no path reads the whole working directory, and ${refused}; name the directories to read (such as src), or use file_search, which leaves hidden paths out`;
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
