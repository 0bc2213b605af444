import { programSpec } from './programs/index.js';
import { copiedTrees, grammarFor, readArguments } from './programs/judge-options.js';
import type { ProgramSpec } from './programs/program-spec.js';
import { spelledOptions, type Grammar, type ReadWords } from './programs/read-options.js';

/**
 * The trees a command reads whole: `operands` (paths from the working directory) are read with
 * everything under them when they are directories, `cwd` says the working directory is read that
 * way (no path was given to a program that then searches `.`), and `fromRoot` are paths relative
 * to the repository root (git's `HEAD:path`). The shell judge refuses each that is or holds a
 * path a deny rule hides.
 */
export interface TreeReads {
  operands: string[];
  cwd: boolean;
  fromRoot: string[];
}

const NONE: TreeReads = { operands: [], cwd: false, fromRoot: [] };

/** Programs that never descend into a directory they are given (most refuse one), nor read one unasked. */
const SHALLOW = new Set(
  'echo printf pwd date true false seq yes which sleep cd basename dirname realpath stat file mkdir touch cat head tail wc sort uniq cut tr sed node'.split(
    ' ',
  ),
);

/**
 * Which trees `program` (after unwrapping) reads with these arguments: a tree reader's as its spec
 * says (`treeReader`), a tree copier's sources. Unknown programs (added to the allowlist by the
 * operator) read every directory they are named; those that run project code (`npm test`) can read
 * anything the process can, which only a kernel sandbox hides.
 * @example treeReads('grep', ['-r', 'KEY']) // { operands: [], cwd: true, fromRoot: [] }
 * @example treeReads('rg', ['KEY', 'src']) // { operands: ['src'], cwd: false, fromRoot: [] }
 */
export function treeReads(program: string, args: readonly string[]): TreeReads {
  if (SHALLOW.has(program)) return NONE;
  if (program === 'find') return findReads(args);
  if (program === 'git') return gitReads(args);
  const spec = programSpec(program);
  if (spec?.role === 'tree-copier') return { ...NONE, operands: copiedTrees(spec, args) ?? [] };
  if (spec?.treeReader) return readerReads(spec, spec.treeReader, args);
  return { ...NONE, operands: everyWord(args) };
}

/**
 * Every word that may name a tree: operands, option values, and the values of `--option=value`; after the first `--`,
 * dashed words whole as well (operands, unless the `--` was an option's value).
 */
function everyWord(args: readonly string[]): string[] {
  const end = args.indexOf('--');
  return args
    .flatMap((a, i) =>
      !a.startsWith('-') ? [a] : end !== -1 && i > end ? [a, a.slice(a.indexOf('=') + 1 || a.length)] : [a.slice(a.indexOf('=') + 1 || a.length)],
    )
    .filter((a) => a !== '' && a !== '--');
}

/**
 * A tree reader's trees, as its grammar reads `args`. Where the reading is uncertain it errs towards
 * reading more: an option the grammar does not know (or a prefix of several) may read trees and
 * take a value, or glue one on, so every word is a tree and the working directory is read too;
 * after `--`, the pattern is judged as a path as well.
 * @example readerReads(grep, ['-rs', 'KEY', '..']) // { operands: ['..'], cwd: false }
 * @example readerReads(grep, ['-r', '--new-flag', 'KEY', '..']) // { operands: ['KEY', '..'], cwd: true }
 */
function readerReads(spec: ProgramSpec, reader: NonNullable<ProgramSpec['treeReader']>, args: readonly string[]): TreeReads {
  const grammar = grammarFor(spec, args);
  const read = readArguments(spec, args, grammar);
  if (read.options.some(({ option }) => option === undefined)) return { operands: everyWord(args), cwd: reader.cwd === true, fromRoot: [] };
  if (reader.trees === 'with-option' && !readsTreesOption(args, grammar, read)) return NONE;
  const operands = read.operands.map((i) => args[i]!);
  const patternFirst = reader.pattern === true && !read.options.some(({ option }) => option?.replacesPattern);
  const values = read.options.flatMap(({ option, value }) => (option?.treeValue && value !== undefined ? [value] : []));
  return {
    operands: [...(patternFirst && read.end === args.length ? operands.slice(1) : operands), ...values],
    cwd: reader.cwd === true && operands.length <= (patternFirst ? 1 : 0),
    fromRoot: [],
  };
}

/**
 * Whether an option makes the program read trees: any word among the options that may spell one
 * (a prefix of one too: `--rec`, `--re`), as `judgeOptions` looks for refused options, or an
 * option given the value that makes it read them (`-d recurse`, `--directories=rec`).
 */
function readsTreesOption(args: readonly string[], grammar: Grammar, read: ReadWords): boolean {
  if (args.slice(0, read.end).some((word) => spelledOptions(word, grammar).some(({ option }) => option.readsTrees === true))) return true;
  return read.options.some(
    ({ option, value }) => typeof option?.readsTrees === 'string' && value !== undefined && value !== '' && option.readsTrees.startsWith(value),
  );
}

/** `find [-H|-P|-D x|-Ox] [path...] [expression]`: the paths before the expression, else `.`. */
function findReads(args: readonly string[]): TreeReads {
  let i = 0;
  while (i < args.length && /^-(?:[HLP]|D|O\d*)$/.test(args[i]!)) i += args[i] === '-D' ? 2 : 1;
  const operands: string[] = [];
  for (; i < args.length && !/^[-(!),]/.test(args[i]!); i++) operands.push(args[i]!);
  return { operands, cwd: operands.length === 0, fromRoot: [] };
}

/**
 * git reads the repository, not the working tree: its path operands (pathspecs) are judged as trees,
 * and a revision's path (`HEAD:secrets/k`, `:0:secrets/k`, from the repository root; `HEAD:./k` from here) as a path.
 */
function gitReads(args: readonly string[]): TreeReads {
  const words = args.filter((a) => !a.startsWith('-')).slice(1);
  const revisionPaths = words.flatMap((word) => {
    const found = /^[^:]*:(?:[0-3]:)?(.+)$/.exec(word);
    return found ? [found[1]!] : [];
  });
  return { operands: [...words, ...revisionPaths], cwd: false, fromRoot: revisionPaths };
}
