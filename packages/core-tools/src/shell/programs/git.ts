import { refuse, type ProgramSpec, type Refusal } from './program-spec.js';

/** Options of git itself (before the subcommand) that change nothing about what runs or where; all others are refused. */
const GLOBAL_OPTIONS = ['--no-pager', '-P', '--version', '--help', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects'];

/** What `git branch` may be given: listing options, their values, and patterns after `--list`. */
const BRANCH_LISTING = new Set([
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
const BRANCH_VALUED = new Set(['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format']);

/**
 * Before the subcommand, git's options choose its configuration (`-c`, `--config-env`), repository
 * (`-C`, `--git-dir`, `--work-tree`) or programs (`--exec-path`, `-p`): only `GLOBAL_OPTIONS` pass.
 * `git branch NAME`, `-d`, `-m`, `--edit-description` ... change the repository; only listing runs.
 */
function judgeGit(args: readonly string[]): Refusal | undefined {
  const subcommand = args.findIndex((arg) => !arg.startsWith('-'));
  const global = (subcommand === -1 ? args : args.slice(0, subcommand)).find((arg) => !GLOBAL_OPTIONS.includes(arg));
  if (global !== undefined) return { program: 'git', class: 'chooses-repository', option: global };
  if (args[subcommand] !== 'branch') return undefined;
  // The words after the first: with allowed options before `branch`, only a `--list` form passes.
  const rest = args.slice(1);
  const listsPatterns = rest.includes('--list') || rest.includes('-l');
  const listing = rest.every(
    (arg, i) => BRANCH_LISTING.has(arg.split('=')[0]!) || (i > 0 && BRANCH_VALUED.has(rest[i - 1]!)) || (listsPatterns && !arg.startsWith('-')),
  );
  return listing ? undefined : { program: 'git', class: 'changes-repository' };
}

/**
 * git, with its repository configuration checked before the line runs (`gitConfigGuard`). Options of
 * its subcommands that write files, run programs or reach other repositories are refused.
 */
export const git: ProgramSpec = {
  name: 'git',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: ['status', 'diff', 'log', 'show', 'branch', 'rev-parse', 'ls-files', 'blame'],
  configGuard: 'git',
  options: [
    refuse('writes-files', '--output', { value: 'required' }),
    refuse('runs-programs', '--ext-diff'),
    refuse('runs-programs', '--upload-pack --receive-pack --exec', { value: 'required' }),
    refuse('runs-programs', '--open-files-in-pager', { value: 'optional' }),
    refuse('runs-programs', '--paginate'),
    refuse('chooses-repository', '--config-env', { value: 'required' }),
  ],
  subcommands: { grep: [refuse('runs-programs', '-O --open-files-in-pager', { value: 'optional' })] },
  judge: judgeGit,
  usage: { lead: ['log'], options: ['--oneline'], operands: ['HEAD'] },
};
