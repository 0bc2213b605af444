import type { Durability, PolicyDocument, RiskMode } from '@toolwright/executor';
import type { ShellConstruct } from '@toolwright/core-tools';
import type { Integer } from '@toolwright/schema';

// This type is the source of `toolwright.config.schema.json` (tools/config-schema generates it with
// the transformer): its JSDoc is what editors show, and its tags are the schema's constraints.

/** `toolwright.config.json`: how `call`, `serve`, `list` and `policy` set up the tools. Paths are relative to this file. */
export interface ToolwrightConfig {
  /** The JSON Schema of this file, for editors (ignored by toolwright). */
  $schema?: string;
  /** The directories the file tools are confined to. */
  workspace?: WorkspaceSection;
  /** What `shell_exec` may run and how. */
  shell?: ShellSection;
  /** Addresses, ports and limits of `web_fetch`, and the provider of `web_search`. */
  web?: WebSection;
  /** The read-only directory `vault_copyto` copies from. */
  vault?: VaultSection;
  /** Allow/ask/deny rules: a policy file's path, or the rules themselves. */
  policy?: string | PolicyDocument;
  /** The audit log: `"none"`, or where and how durably it is written. */
  audit?: 'none' | AuditSection;
  /**
   * Which calls run without approval: `autorun_all`, `autorun_no_public` (the default: calls that
   * reach outside the workspace ask), `autorun_none` (every side effect asks).
   */
  risk?: RiskMode;
  /**
   * Largest tool output the model sees, in bytes; longer outputs are truncated (head and tail kept).
   * @minimum 256
   */
  maxOutputBytes?: Integer;
  /** Stop a tool called repeatedly with the same arguments and the same result; `false` turns this off. */
  repeatedCalls?: RepeatedCallsSection | false;
  /**
   * Keep `pure` tools' outputs on disk and `deterministic` ones' for a session, and answer a repeated call from them
   * (as `--cache` does): `true` with the defaults. A cached answer still passes the policy gate and is audited as one.
   */
  cache?: boolean | CacheSection;
  /** Which tools are exposed. */
  tools?: ToolsSection;
}

export interface CacheSection {
  /** The folder of `pure` tools' outputs (default: `~/.cache/toolwright/outputs/<workspace id>`, outside the workspace). */
  dir?: string;
  /**
   * Most bytes the folder's entries take (default 64 MiB); past it the least recently used are removed.
   * @minimum 1
   */
  maxBytes?: Integer;
  /**
   * Most characters of `deterministic` tools' outputs kept in memory (default 16 Mi).
   * @minimum 1
   */
  maxMemoryChars?: Integer;
}

export interface WorkspaceSection {
  /** The root of `private:/` and of unscoped paths (default: the current directory; `--workspace` overrides). */
  root?: string;
  /** The root of `shared:/`. */
  shared?: string;
  /** The root of `public:/`. */
  public?: string;
  /**
   * Paths writable only with a person's approval, gitignore-style: a name without `/` (`.git`) at any
   * depth, one with a `/` (`/build`) below its scope root. Default: `.git`, `.toolwright`, `.env`.
   */
  protectedPaths?: string[];
}

export interface ShellSection {
  /** `host`: a fresh process per command; `session`: one shell per session (`cd` persists); `disabled`: refuse every call. */
  backend?: 'host' | 'session' | 'disabled';
  /** Why the shell is disabled, told to the model (`backend: "disabled"` only). */
  reason?: string;
  /** More allowed commands: a program (`python3`) or a program with its leading words (`npm test`). Added to the defaults. */
  allow?: string[];
  /** Start from an empty allowlist instead of the default read-mostly one (default true: keep the defaults). */
  defaultAllow?: boolean;
  /** Constructs refused by default, each allowed when listed (default `["glob"]`; a list replaces it). */
  permit?: ShellConstruct[];
  /**
   * Longest a command may run, in milliseconds (default 120000).
   * @minimum 1
   */
  timeoutMs?: Integer;
  /**
   * stdout and stderr kept per call, each, in bytes (default 32768).
   * @minimum 1
   */
  maxOutputBytes?: Integer;
  /**
   * Background jobs kept at once (default 8).
   * @minimum 1
   */
  maxJobs?: Integer;
  /**
   * Shell sessions kept at once (`backend: "session"` only, default 16).
   * @minimum 1
   */
  maxSessions?: Integer;
  /**
   * Longest command accepted, in characters (default 4096).
   * @minimum 1
   */
  maxLength?: Integer;
  /**
   * Most simple commands in one call (default 16).
   * @minimum 1
   */
  maxCommands?: Integer;
  /** Environment variables passed through to commands (besides PATH, LANG, LC_*, TZ); some, like LD_*, never are. */
  passEnv?: string[];
  /**
   * The kernel sandbox every command runs in (bubblewrap on Linux): the workspace is the only writable place
   * and nothing outside it and the system's programs is visible. `auto` (default): use it where it works,
   * else run with the command judge alone and warn; `required`: refuse commands where it does not work; `off`.
   */
  sandbox?: 'auto' | 'required' | 'off';
  /** Whether sandboxed commands may use the network (default false: loopback only). */
  network?: boolean;
  /** Directories outside the workspace that sandboxed commands may read, besides the system's (a toolchain in `/opt`). */
  readablePaths?: string[];
  /** Resource limits of each sandboxed command. */
  limits?: ShellLimits;
}

export interface ShellLimits {
  /**
   * CPU seconds each process may use (default 600).
   * @minimum 1
   */
  cpuSeconds?: Integer;
  /**
   * Bytes of memory a command's processes may use together where control groups exist, and each process's data
   * (default 4 GiB).
   * @minimum 1
   */
  memoryBytes?: Integer;
  /**
   * Largest file a command may write, in bytes (default 1 GiB).
   * @minimum 1
   */
  fileSizeBytes?: Integer;
  /**
   * Processes and threads a command may run at once (default 256; for root only where control groups exist).
   * @minimum 1
   */
  processes?: Integer;
  /**
   * Open files per process (default 1024).
   * @minimum 1
   */
  openFiles?: Integer;
}

export interface WebSection {
  /** Internal addresses `web_fetch` may reach anyway: addresses or CIDR ranges such as `10.1.0.0/16`. */
  allowAddresses?: string[];
  /** Ports (1 to 65535) `web_fetch` may use on public hosts besides 80 and 443. */
  allowPorts?: Integer[];
  /**
   * Largest decompressed body read, in bytes (default 2 MiB).
   * @minimum 1
   */
  maxBytes?: Integer;
  /**
   * Most redirects followed (default 5).
   * @minimum 0
   */
  maxRedirects?: Integer;
  /**
   * Time limit of one fetch, in milliseconds (default 30000).
   * @minimum 1
   */
  timeoutMs?: Integer;
  userAgent?: string;
  /** Where `web_search` sends queries; without it, `web_search` answers that it is not configured. */
  search?: SearchSection;
}

export interface SearchSection {
  /** `searxng` (an instance's JSON API) or `brave` (the Brave Search API; needs `apiKeyEnv`). */
  provider: 'searxng' | 'brave';
  /** The provider's URL (required for searxng). */
  endpoint?: string;
  /**
   * The NAME of the environment variable holding the API key; the key itself never goes in this file.
   * @pattern ^[A-Za-z_][A-Za-z0-9_]*$
   */
  apiKeyEnv?: string;
}

export interface VaultSection {
  /** The directory `vault_copyto` copies from (read-only). */
  root: string;
}

export interface AuditSection {
  /** The JSONL audit log (default: `<workspace>/.toolwright/audit.jsonl`). */
  path?: string;
  /** `always`: each record synced before the call proceeds (default); `batched`: synced in groups; `none`: never synced. */
  durability?: Durability;
  /** Rotation by size: before the log would pass `maxBytes` it becomes `<log>.1` (older ones `<log>.2`, ...) and a new one starts. */
  rotate?: AuditRotationSection;
}

export interface AuditRotationSection {
  /**
   * Largest size of one log file, in bytes.
   * @minimum 1024
   */
  maxBytes: Integer;
  /**
   * Rotated files kept; the oldest beyond is deleted (default 5).
   * @minimum 1
   */
  keep?: Integer;
}

export interface RepeatedCallsSection {
  /**
   * Calls with the same arguments and result before the guard acts (default 3).
   * @minimum 2
   */
  threshold?: Integer;
  /** What then happens: ask for approval (default) or refuse. */
  action?: 'ask' | 'deny';
  /**
   * Whose calls are compared: each client's (default: an MCP session's, a connection's, the holders of the bearer
   * token; none over stateless HTTP without a token, whose clients cannot be told apart), or all the server's together.
   */
  per?: 'client' | 'server';
}

export interface ToolsSection {
  /** Register the core tools (default true). */
  core?: boolean;
  /** Expose only tools whose name matches one of these globs (e.g. `file_*`). */
  include?: string[];
  /** Leave out tools whose name matches one of these globs (applied after `include`). */
  exclude?: string[];
  /**
   * Toolkit classes of the project (`--project`), by export name, whose instances are kept per
   * session (one per MCP session) instead of one for the whole process: for toolkits whose
   * `@tool()` methods keep state. Calls without a session (stdio, `toolwright call`) share one
   * instance; stateless HTTP has no sessions, so `serve --mcp http` needs `--sessions`.
   * @uniqueItems
   */
  perSession?: string[];
}
