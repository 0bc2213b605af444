import { optionsNamed, scanArguments, type OptionSpec, type ScannedArguments } from './option-scan.js';

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

const GREP: OptionSpec = {
  valued: 'efmABCdD',
  flags: 'EFGPiyvwxclLoqsbHhnTZzrRUaIV',
  longFlags: ['--recursive', '--dereference-recursive', '--ignore-case', '--no-ignore-case', '--line-number', '--count', '--files-with-matches'],
};
const RG: OptionSpec = {
  valued: 'ABCEefgjMmrTtd',
  flags: 'bscFlLhivnxUINop0PqzSauVHw',
  longFlags: ['--hidden', '--no-ignore', '--files', '--type-list', '--files-with-matches', '--count', '--line-number', '--ignore-case', '--fixed-strings'],
};
/** Programs that read the trees they are given, and whether they read `.` when given no path. */
const READERS: Record<string, { spec: OptionSpec; recursive?: (s: ScannedArguments) => boolean; pattern?: string[]; readsCwd: boolean }> = {
  grep: {
    spec: GREP,
    // -r, -R, -d recurse and --directories=recurse (by any prefix, as argmatch takes them).
    recursive: (s) =>
      optionsNamed(s, '-r', '-R', '--recursive', '--dereference-recursive').length > 0 ||
      optionsNamed(s, '-d', '--directories').some(({ value }) => value !== undefined && value !== '' && 'recurse'.startsWith(value)),
    pattern: ['-e', '-f', '--regexp', '--file'],
    readsCwd: true,
  },
  rg: { spec: RG, pattern: ['-e', '-f', '--regexp', '--file', '--files', '--type-list'], readsCwd: true },
  du: { spec: { valued: 'BdtX', flags: '0abcDHhklLmPSsx', longFlags: ['--all', '--summarize', '--human-readable'] }, readsCwd: true },
  tree: { spec: { valued: 'LPIHTo', flags: 'adlfxRiqNQpugshDFvtcUrnCASJX', longFlags: ['--noreport', '--dirsfirst'] }, readsCwd: true },
  ls: {
    spec: { valued: 'IwT', flags: 'aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1', longFlags: ['--all', '--recursive', '--almost-all'] },
    recursive: (s) => optionsNamed(s, '-R', '--recursive').length > 0,
    readsCwd: true,
  },
  cp: {
    spec: { valued: 'St', flags: 'aRrdfHiLlnPpsTuvxb', longFlags: ['--recursive', '--archive'] },
    recursive: (s) => optionsNamed(s, '-r', '-R', '-a', '--recursive', '--archive').length > 0,
    readsCwd: false,
  },
  diff: {
    spec: { valued: 'CUFIxXSWD', flags: 'iEZbwBatTlNPsqeyndrpuc', longFlags: ['--recursive', '--no-dereference', '--brief'] },
    recursive: (s) => optionsNamed(s, '-r', '--recursive').length > 0,
    readsCwd: false,
  },
};

/**
 * Which trees `program` (after unwrapping) reads with these arguments. Unknown programs (added to
 * the allowlist by the operator) read every directory they are named; those that run project code
 * (`npm test`) can read anything the process can, which only a kernel sandbox hides.
 * @example treeReads('grep', ['-r', 'KEY']) // { operands: [], cwd: true, fromRoot: [] }
 * @example treeReads('rg', ['KEY', 'src']) // { operands: ['src'], cwd: false, fromRoot: [] }
 */
export function treeReads(program: string, args: readonly string[]): TreeReads {
  if (SHALLOW.has(program)) return NONE;
  if (program === 'find') return findReads(args);
  if (program === 'git') return gitReads(args);
  const reader = READERS[program];
  if (!reader) {
    // Every word may name a tree: operands, and the values of `--option=value`.
    return { ...NONE, operands: args.map((a) => (a.startsWith('-') ? a.slice(a.indexOf('=') + 1 || a.length) : a)).filter((a) => a !== '') };
  }
  const scanned = scanArguments(args, reader.spec);
  if (reader.recursive && !reader.recursive(scanned)) return NONE;
  const paths = reader.pattern && optionsNamed(scanned, ...reader.pattern).length === 0 ? scanned.operands.slice(1) : scanned.operands;
  return { operands: paths, cwd: reader.readsCwd && paths.length === 0, fromRoot: [] };
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
