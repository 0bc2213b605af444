/**
 * What each program may be asked to do: wrappers judged by the command they run, programs never
 * allowed, and the options that turn an allowed program into a command runner, a writer outside
 * the workspace, a follower of symbolic links or a changer of the host. Options are matched as the
 * program parses them: GNU long options by any unambiguous prefix (`--compress-prog` is
 * `--compress-program`), short options inside clusters (`-nz` holds `-z`).
 */

/** Programs refused whatever the allowlist says: they run arbitrary code or change who runs it. */
export const NEVER = new Set([
  'sudo',
  'su',
  'doas',
  'pkexec',
  'eval',
  'exec',
  'source',
  '.',
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'builtin',
  'trap',
  'alias',
  'unalias',
  'set',
  'export',
  'declare',
  'typeset',
  'readonly',
  'local',
  'enable',
  'chroot',
  'setsid',
  'unshare',
  'nsenter',
  'read',
  'mapfile',
  'readarray',
  'getopts',
  'let',
  'hash',
  'shopt',
  'ulimit',
  'umask',
  'kill',
  'disown',
  'wait',
  'fc',
  'history',
  'complete',
  'coproc',
]);

/** Programs that run a command whose arguments Toolwright cannot see: refused with their reason. */
export const OPAQUE: Record<string, string> = {
  xargs: 'xargs is not allowed: it builds a command from its input, which cannot be judged before it runs; run the command on the listed files directly',
  parallel: 'parallel is not allowed: it builds commands from its input, which cannot be judged before they run',
  watch: 'watch is not allowed: it re-runs a command through a shell',
};

/** Wrappers judged by the command they run: how many of their own words to skip, or why not. */
export const WRAPPERS: Record<string, (args: string[]) => number | string> = {
  // No options at all: `-S`/`--split-string` would split one argument into a new command line, `-C`
  // moves elsewhere, and `-i`/`-u` would remove the environment that neutralises configuration
  // (git's overrides, the private HOME).
  env: (args) => skipOptions('env', args, { flags: [], valued: [] }),
  timeout: (args) => {
    const skip = skipOptions('timeout', args, {
      flags: ['--foreground', '--preserve-status', '-v', '--verbose'],
      valued: ['-s', '--signal', '-k', '--kill-after'],
    });
    return typeof skip === 'number' ? skip + 1 : skip;
  },
  nice: (args) => skipOptions('nice', args, { flags: [], valued: ['-n', '--adjustment'], numeric: true }),
  nohup: (args) => (args[0] === '--' ? 1 : 0),
  command: (args) => skipOptions('command', args, { flags: ['-p'], valued: [] }),
};

function skipOptions(program: string, args: string[], spec: { flags: string[]; valued: string[]; numeric?: boolean }): number | string {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return i + 1;
    if (!arg.startsWith('-') || (arg === '-' && !spec.flags.includes('-'))) break;
    if (spec.flags.includes(arg)) continue;
    if (spec.numeric && /^-\d+$/.test(arg)) continue;
    const [name] = arg.split('=');
    if (spec.valued.includes(arg)) {
      i++;
      continue;
    }
    if (spec.valued.includes(name!) && arg.includes('=')) continue;
    if (spec.valued.some((v) => v.length === 2 && arg.startsWith(v) && arg.length > 2)) continue;
    return `${program} ${arg} is not allowed here; use ${program} only to run a command with its plain options`;
  }
  return i;
}

/** The long option `full` as GNU getopt_long and git's parse-options accept it: any prefix of 3+ characters. */
function isLong(arg: string, ...names: string[]): boolean {
  if (!arg.startsWith('--')) return false;
  const given = arg.split('=')[0]!;
  return given.length > 2 && names.some((full) => full.startsWith(given));
}

/** Short options in a cluster (`-laL`), stopping at the first that takes a value (`-ez` is `-e z`). */
function shortFlags(arg: string, valued = ''): string {
  if (!/^-[^-]/.test(arg)) return '';
  let flags = '';
  for (const char of arg.slice(1)) {
    flags += char;
    if (valued.includes(char)) break;
  }
  return flags;
}

function findArg(args: string[], test: (arg: string) => boolean): string | undefined {
  for (const arg of args) {
    if (arg === '--') return undefined;
    if (test(arg)) return arg;
  }
  return undefined;
}

/** Options that make a program follow symbolic links, which could lead it out of the workspace. */
const FOLLOWS_LINKS: Record<string, { short: string; valued?: string; long: string[] }> = {
  grep: { short: 'R', valued: 'efmABCdD', long: ['--dereference-recursive'] },
  rg: { short: 'L', valued: 'efgmtTABCEjMr', long: ['--follow'] },
  ls: { short: 'L', valued: 'IwT', long: ['--dereference'] },
  du: { short: 'L', valued: 'BdtX', long: ['--dereference'] },
  tree: { short: 'l', valued: 'LPIHTo', long: ['--follow'] },
  cp: { short: 'L', valued: 'St', long: ['--dereference'] },
  stat: { short: 'L', valued: 'c', long: ['--dereference'] },
  file: { short: 'L', valued: 'mfFeP', long: ['--dereference'] },
  wc: { short: '', long: ['--files0-from'] },
};

/** Options that read a list of file names from a file: those names would never be judged. */
function readsNameList(program: string, args: string[]): string | undefined {
  return findArg(
    args,
    (a) => isLong(a, '--files0-from', '--files-from') || /^-files0-from$/.test(a) || (program === 'file' && shortFlags(a, 'mfFeP').includes('f')),
  );
}

/** Why these arguments make `program` dangerous, or undefined. `args` are the words after the program name. */
export function dangerousOption(program: string, args: string[]): string | undefined {
  const list = readsNameList(program, args);
  if (list) return `${program} ${list} is not allowed: it reads file names from a file, which cannot be judged; name the files in the command`;
  const follows = FOLLOWS_LINKS[program];
  if (follows) {
    const bad = findArg(args, (a) => isLong(a, ...follows.long) || [...shortFlags(a, follows.valued)].some((c) => follows.short.includes(c)));
    if (bad) return `${program} ${bad} is not allowed: it follows symbolic links, which can lead outside the workspace`;
  }
  switch (program) {
    case 'find': {
      if (args.some((a) => a === '-L' || a === '-follow'))
        return `find ${args.find((a) => a === '-L' || a === '-follow')} is not allowed: it follows symbolic links, which can lead outside the workspace`;
      const bad = args.find((a) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(a));
      return bad ? `find ${bad} is not allowed: it runs commands or writes files; list the files and act on them with other tools` : undefined;
    }
    case 'git':
      return gitOption(args);
    case 'sed':
      return sedOption(args);
    case 'rg': {
      const bad = findArg(args, (a) => /^--(pre|pre-glob|hostname-bin|search-zip)(=|$)/.test(a) || shortFlags(a, 'efgmtTABCEjMr').includes('z'));
      return bad ? `rg ${bad} is not allowed: it runs other programs` : undefined;
    }
    case 'tree': {
      const bad = findArg(args, (a) => isLong(a, '--output') || /[oR]/.test(shortFlags(a, 'LPIHTo')));
      return bad ? `tree ${bad} is not allowed: it writes files` : undefined;
    }
    case 'sort': {
      const bad = findArg(args, (a) => isLong(a, '--output', '--compress-program', '--temporary-directory') || /[oT]/.test(shortFlags(a, 'kotST').slice(-1)));
      return bad ? `sort ${bad} is not allowed: it writes files or runs a program` : undefined;
    }
    case 'date': {
      const bad = findArg(args, (a) => isLong(a, '--set') || shortFlags(a, 'dfrI').includes('s'));
      return bad ? `date ${bad} is not allowed: it sets the system clock` : undefined;
    }
    case 'diff': {
      const recursive = findArg(args, (a) => isLong(a, '--recursive') || shortFlags(a, 'CUFIxXSWD').includes('r'));
      const noFollow = args.some((a) => isLong(a, '--no-dereference'));
      return recursive && !noFollow
        ? `diff ${recursive} is only allowed with --no-dereference: a recursive diff follows symbolic links, which can lead outside the workspace`
        : undefined;
    }
    case 'printf':
      return args[0] === '-v' || args[0]?.startsWith('-v') ? 'printf -v is not allowed: it sets shell variables' : undefined;
    case 'cp': {
      // A backup suffix makes a name nobody wrote (`cp -b -S it a .g` renames `.g` to `.git`).
      const bad = findArg(args, (a) => isLong(a, '--backup', '--suffix') || /[bS]/.test(shortFlags(a, 'St')));
      return bad ? `cp ${bad} is not allowed: backups make file names that were never judged` : undefined;
    }
    case 'cd':
      return undefined;
    default:
      return undefined;
  }
}

/** Options of git's subcommands that write files, run programs or reach other repositories. */
const GIT_REFUSED = ['--output', '--ext-diff', '--upload-pack', '--receive-pack', '--exec', '--config-env', '--open-files-in-pager', '--paginate'];
/** Options of git itself (before the subcommand) that change nothing about what runs or where. */
const GIT_GLOBAL_ALLOWED = new Set(['--no-pager', '-P', '--version', '--help', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects']);
const GIT_BRANCH_LISTING = new Set([
  '-a',
  '--all',
  '-r',
  '--remotes',
  '-v',
  '-vv',
  '--verbose',
  '-l',
  '--list',
  '--show-current',
  '--contains',
  '--no-contains',
  '--merged',
  '--no-merged',
  '--points-at',
  '--sort',
  '--format',
  '--column',
  '--no-column',
  '--color',
  '--no-color',
  '-i',
  '--ignore-case',
  '--abbrev',
  '--no-abbrev',
  '-q',
  '--quiet',
]);

function gitOption(args: string[]): string | undefined {
  // Before the subcommand: -c, -C, --git-dir, --work-tree, --exec-path, --config-env ... choose
  // the configuration, repository or programs git uses.
  const global = args
    .slice(
      0,
      Math.max(
        0,
        args.findIndex((a) => !a.startsWith('-')),
      ),
    )
    .find((a) => !GIT_GLOBAL_ALLOWED.has(a));
  if (global !== undefined) return `git ${global} is not allowed: options before the subcommand choose the configuration, repository or programs git uses`;
  if (args.length > 0 && args.every((a) => a.startsWith('-')) && args.some((a) => !GIT_GLOBAL_ALLOWED.has(a)))
    return `git ${args.find((a) => !GIT_GLOBAL_ALLOWED.has(a))} is not allowed here`;
  const bad = findArg(args, (a) => a.startsWith('--') && GIT_REFUSED.some((name) => isLong(a, name)));
  if (bad) return `git ${bad} is not allowed: it can run configured programs, write files or touch other repositories`;
  // `git branch NAME`, `-d`, `-m`, `--edit-description` ... change the repository; only listing runs.
  if (args.find((a) => !a.startsWith('-')) === 'branch') {
    const listing = args
      .slice(1)
      .every(
        (a, i, rest) =>
          GIT_BRANCH_LISTING.has(a.split('=')[0]!) ||
          (i > 0 && /^--(contains|no-contains|merged|no-merged|points-at|sort|format)$/.test(rest[i - 1]!)) ||
          ((rest.includes('--list') || rest.includes('-l')) && !a.startsWith('-')),
      );
    if (!listing) return 'only listing forms of git branch are allowed (git branch, git branch -a, git branch --list PATTERN)';
  }
  return undefined;
}

function sedOption(args: string[]): string | undefined {
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
  return quiet && scripts.length > 0 && scripts.every((s) => printOnly.test(s.trim()))
    ? undefined
    : "only sed's printing form is allowed (sed -n '10,20p' file); use file_edit to change files";
}

/** Programs that copy whole trees, with the options that make them recursive. */
export function copiesTrees(program: string, args: string[]): boolean {
  if (program !== 'cp') return false;
  return args.some((a) => isLong(a, '--recursive', '--archive') || /[rRa]/.test(shortFlags(a, 'St')));
}

/** Programs that never write files (with the options `dangerousOption` lets through). */
const READERS = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'rg',
  'find',
  'echo',
  'printf',
  'pwd',
  'date',
  'true',
  'false',
  'basename',
  'dirname',
  'realpath',
  'stat',
  'file',
  'du',
  'diff',
  'sed',
  'sort',
  'cut',
  'tr',
  'seq',
  'yes',
  'which',
  'cd',
  'sleep',
  'tree',
  'git',
  'export',
  'assignment',
]);

/**
 * Why a command line may not run git: its repository configuration is read before the line runs,
 * so nothing that may write files may run before git or beside it in a pipeline (`cp x .git/config;
 * git status` would be judged on the old configuration). Undefined when the line is fine.
 */
export function gitOrderProblem(programs: readonly string[]): string | undefined {
  const lastGit = programs.lastIndexOf('git');
  if (lastGit === -1) return undefined;
  const writer = programs.slice(0, lastGit).find((p) => !READERS.has(p));
  return writer
    ? `'${writer}' runs before git in the same command line, and git's configuration is checked before the line runs; run git in a call of its own`
    : undefined;
}
