import { PROGRAM_SPECS } from './programs/index.js';

/**
 * What `shell_exec` may run. Every simple command of a pipeline or list is judged on its own:
 * its program (after unwrapping `env`, `timeout`, `nice`, `nohup`, `xargs`) must be allowed, and
 * the dangerous flags of allowed programs are refused.
 */
export interface ShellPolicy {
  /**
   * Allowed commands: a program name (`ls`: any arguments) or a program with its leading words
   * (`npm test`, `git status`: only that subcommand). Programs named by path are judged by their
   * basename only when the path is inside the workspace; `/usr/bin/ls` is judged as `ls`.
   */
  allow: readonly string[];
  /** Constructs refused by default, each allowed only when listed. */
  permit?: readonly ShellConstruct[];
  /** Longest command accepted, in characters (default 4096). */
  maxLength?: number;
  /** Most simple commands in one call (default 16). */
  maxCommands?: number;
}

export type ShellConstruct =
  | 'redirection' // > file, >> file, < file (paths are still confined to the workspace)
  | 'variable-expansion' // $HOME, ${X}
  | 'glob' // *.ts, file?.txt in arguments
  | 'assignment'; // NAME=value and export NAME=value statements (session backend: they persist), literal values, safe names only

/**
 * Read-mostly development commands that obey no configuration the workspace can hold (git's is
 * neutralised or refused): the `defaultAllow` programs of `PROGRAM_SPECS`, in its order. Writers (`rm`, `mv`, `npm install`) and programs that follow workspace
 * files (`npm test`/`npm run` run package.json scripts, any npm command obeys a project `.npmrc`
 * that can move its log and cache files outside, `tsc` follows tsconfig.json, which can write
 * outside) must be added on purpose: whoever can write the workspace then chooses what they run.
 */
export const DEFAULT_SHELL_ALLOW: readonly string[] = PROGRAM_SPECS.flatMap(({ name, defaultAllow }) =>
  defaultAllow === true ? [name] : (defaultAllow ?? []).map((words) => `${name} ${words}`),
);

export const DEFAULT_SHELL_POLICY: ShellPolicy = { allow: DEFAULT_SHELL_ALLOW, permit: ['glob'] };
