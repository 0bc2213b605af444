/** One simple command after expansion and unwrapping, as it will run. */
export interface SimpleCommand {
  /** The words the program receives: quotes removed, permitted variables and globs expanded. */
  argv: string[];
  /** The program judged against the allowlist (after `env`, `timeout`, ... are unwrapped). */
  program: string;
  text: string;
  /** The directory it runs in when every `cd` before it succeeded (absolute, as the kernel resolves it). */
  cwd: string;
}

/** How arguments that name files are confined: `check` returns why a path is refused, if it is. */
export interface PathConfinement {
  root: string;
  /** The shell's working directory when the command starts (default: the root). */
  cwd?: string;
  /** Why `value`, read from the directory `cwd`, is refused — or undefined. */
  check(value: string, cwd: string): string | undefined;
  /** Why copying the tree at `value` is refused (it holds a protected path such as `.git/`, or a hidden one) — or undefined. */
  checkTree?(value: string, cwd: string): string | undefined;
  /** Why reading `value` whole is refused: it is, or holds, a path a policy deny rule hides — or undefined. */
  checkHidden?(value: string, cwd: string): string | undefined;
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
