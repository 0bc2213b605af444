import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SHELL_POLICY, type ShellPolicy } from './shell-policy.js';

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
 * The environment a command sees: an allowlist, never the host's whole environment (no tokens, no
 * BASH_ENV/ENV start-up files). HOME is a private empty directory so user dotfiles (.gitconfig,
 * .npmrc, .bashrc) play no part; git ignores system config and never prompts or pages.
 */
export function commandEnvironment(config: RunningShellOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...PASSED, ...(config.passEnv ?? [])]) {
    const value = process.env[name];
    if (value !== undefined && !/^(BASH_ENV|ENV|BASH_FUNC_.*|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|LD_.*|NODE_OPTIONS)$/.test(name)) env[name] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  env.HOME = privateHome();
  Object.assign(env, { TERM: 'dumb', NO_COLOR: '1', PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' });
  return env;
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
