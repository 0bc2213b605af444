/** The program folders a subprocess finds its interpreter in (`python3`, `node`) unless the tool's `env` names others. */
export const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * The program's environment: `PATH`, `HOME` and `LANG`, then the tool's own variables (`env`, which may replace
 * them) — never the host's environment, whose tokens and start-up settings (`BASH_ENV`, `PYTHONPATH`) are not the
 * tool's. `home` is private to the call (inside the sandbox, on its own `/tmp`).
 */
export function subprocessEnvironment(
  home: string,
  env: Readonly<Record<string, string>> | undefined,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return { PATH: SYSTEM_PATH, HOME: home, LANG: 'C.UTF-8', ...extra, ...env };
}
