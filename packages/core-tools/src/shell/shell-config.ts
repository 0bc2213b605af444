import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ResourceLimits, SandboxMode } from '@toolwright/sandbox';
import { DEFAULT_SHELL_POLICY, type ShellPolicy } from './shell-policy.js';
import { isWithin } from '../workspace/is-within.js';

/** Options shared by the backends that run commands. */
export interface RunningShellOptions {
  policy?: ShellPolicy;
  /** Longest a call may run (default 120 s; a call may ask for less). */
  timeoutMs?: number;
  /** stdout and stderr kept per call, each (default 32 KiB, head and tail). */
  maxOutputBytes?: number;
  /** Between SIGTERM and SIGKILL (default 2 s). */
  killGraceMs?: number;
  /** Variables passed through from this process's environment (besides PATH, LANG, LC_*, TZ). */
  passEnv?: readonly string[];
  /** Background jobs kept at once (default 8). */
  maxJobs?: number;
  /**
   * The kernel sandbox every command runs in (default `auto`: where bubblewrap works, else the judge
   * alone, with a warning; `required`: refuse commands where it does not; `off`).
   */
  sandbox?: SandboxMode;
  /** Whether sandboxed commands may use the network (default false). */
  network?: boolean;
  /** Directories outside the workspace that sandboxed commands may read, besides the system's. */
  readablePaths?: readonly string[];
  /** Resource limits of each sandboxed command (CPU seconds, memory, file size, processes, open files). */
  limits?: Partial<ResourceLimits>;
  /**
   * Runs each command as given, without the command judge, and only inside the kernel sandbox (never
   * without it, whatever `sandbox` says). For tests that show the sandbox holds where the judge is wrong.
   * @internal
   */
  unjudged?: boolean;
}

/**
 * How `shell_exec` runs commands, chosen when the tools are created: `host` runs each command in a
 * fresh child process; `session` keeps one shell per session, so `cd` and permitted variables
 * persist between calls; `disabled` refuses every call and says why.
 */
export type ShellConfig =
  | ({ backend: 'host' } & RunningShellOptions)
  | ({ backend: 'session'; /** Sessions kept at once (default 16; the least recently used is ended). */ maxSessions?: number } & RunningShellOptions)
  | { backend: 'disabled'; reason?: string };

const PASSED = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'];
/**
 * Never passed, even when listed in `passEnv`: each makes a program load code or configuration, or
 * (CDPATH, PWD, OLDPWD) makes `cd`, `pwd` or `$PWD` read differently from where the judge puts the shell.
 */
const NEVER_PASSED =
  /^(BASH_ENV|ENV|BASH_FUNC_.*|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|CDPATH|PWD|OLDPWD|LD_.*|DYLD_.*|NODE_OPTIONS|NODE_PATH|GIT_.*|RIPGREP_CONFIG_PATH|GREP_OPTIONS|PAGER|EDITOR|VISUAL|MANPAGER|LESSOPEN|LESSCLOSE|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|PERL5LIB|RUBYOPT|HOME|XDG_CONFIG_HOME|XDG_CONFIG_DIRS|npm_config_.*|NPM_CONFIG_.*)$/;

/**
 * Repository configuration git obeys is neutralised by command-line configuration (the
 * `GIT_CONFIG_COUNT` environment), which outranks `.git/config` and whatever it includes: no
 * fsmonitor, hooks, pager, editor, ssh or credential programs, no implicit bare repositories (a
 * directory of loose `HEAD`/`config` files is not a repository). Keys that name drivers
 * (`filter.<x>.clean`, `diff.<x>.textconv`) cannot be neutralised this way; `gitConfigGuard`
 * refuses to run git where they are set.
 */
export const GIT_OVERRIDES: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['core.sshCommand', 'false'],
  ['core.askPass', 'false'],
  ['gpg.program', 'false'],
  ['credential.helper', ''],
  ['safe.bareRepository', 'explicit'],
  ['protocol.ext.allow', 'never'],
  ['protocol.file.allow', 'never'],
  ['submodule.recurse', 'false'],
  ['core.untrackedCache', 'false'],
];

/**
 * The environment a command sees: an allowlist, never the host's whole environment (no tokens, no
 * BASH_ENV/ENV start-up files, no configuration paths). HOME is a private empty directory so user
 * dotfiles (.gitconfig, .npmrc, .bashrc) play no part; PATH keeps only absolute directories outside
 * the workspace (a planted `ls` cannot shadow the real one); git ignores system and global config,
 * never prompts or pages, uses only the workspace root's `.git` (GIT_DIR, GIT_WORK_TREE: no
 * discovery), and runs with the repository's program-running settings overridden (`GIT_OVERRIDES`).
 */
export function commandEnvironment(config: RunningShellOptions, root?: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...PASSED, ...(config.passEnv ?? [])]) {
    const value = process.env[name];
    if (value !== undefined && !NEVER_PASSED.test(name)) env[name] = value;
  }
  env.PATH = safePath(env.PATH ?? '/usr/local/bin:/usr/bin:/bin', root);
  env.HOME = privateHome();
  Object.assign(env, {
    TERM: 'dumb',
    NO_COLOR: '1',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_OPTIONAL_LOCKS: '0',
  });
  if (root !== undefined) {
    // git uses the workspace's own repository and no other: no discovery (a nested repository, a
    // planted bare one, a `.git` file pointing elsewhere, a parent directory's repository).
    env.GIT_CEILING_DIRECTORIES = path.dirname(root);
    env.GIT_DIR = path.join(root, '.git');
    env.GIT_WORK_TREE = root;
  }
  env.GIT_CONFIG_COUNT = String(GIT_OVERRIDES.length);
  GIT_OVERRIDES.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** PATH without empty, relative or workspace directories (each would let a workspace file pose as a program). */
function safePath(value: string, root: string | undefined): string {
  const kept = value.split(':').filter((dir) => dir !== '' && path.isAbsolute(dir) && (root === undefined || !isWithin(root, path.resolve(dir))));
  return kept.length > 0 ? [...new Set(kept)].join(':') : '/usr/local/bin:/usr/bin:/bin';
}

let home: string | undefined;

/** One private HOME per process, removed (with whatever commands left in it) when the process exits. */
function privateHome(): string {
  if (home && fs.existsSync(home)) return home;
  if (home === undefined) process.once('exit', () => removeHome());
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-shell-home-'));
  return home;
}

function removeHome(): void {
  if (home) fs.rmSync(home, { recursive: true, force: true });
}

export function resolvedShellConfig(config: ShellConfig | undefined): ShellConfig {
  return config ?? { backend: 'host', policy: DEFAULT_SHELL_POLICY };
}
