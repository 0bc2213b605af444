import type { JsonValue } from './json-schema.js';

/** How dangerous a call is; drives approval and parallelism. */
export type SafetyTier = 'read-only' | 'side-effecting' | 'privileged';
export const SAFETY_TIERS: readonly SafetyTier[] = ['read-only', 'side-effecting', 'privileged'];

/** Declared side effects. */
export type SideEffect = 'fs-read' | 'fs-write' | 'net-read' | 'net-write' | 'db-read' | 'db-write' | 'process-spawn' | 'none';
export const SIDE_EFFECTS: readonly SideEffect[] = ['fs-read', 'fs-write', 'net-read', 'net-write', 'db-read', 'db-write', 'process-spawn', 'none'];

/** Determinism levels; decides whether an output may be cached and replayed. */
export type Determinism = 'pure' | 'deterministic' | 'maybe' | 'non-deterministic';
export const DETERMINISM_LEVELS: readonly Determinism[] = ['pure', 'deterministic', 'maybe', 'non-deterministic'];

/** What a tool may need from the client behind its call (MCP's client capabilities): to ask its user, sample its model, list its roots. */
export type ClientFeature = 'elicitation' | 'sampling' | 'roots';
export const CLIENT_FEATURES: readonly ClientFeature[] = ['elicitation', 'sampling', 'roots'];

/**
 * Whether a call may run as a task the client polls (MCP's Tasks extension): `optional` — a long call becomes a task
 * where the client supports them, else it runs as any call; `required` — the tool is served only to clients that do.
 */
export type TaskSupport = 'optional' | 'required';
export const TASK_SUPPORT: readonly TaskSupport[] = ['optional', 'required'];

/**
 * Who may call a tool: `direct` — the model, as a tool call of its turn; `programmatic` — code the model writes and a
 * provider's code-execution tool runs (Anthropic's programmatic tool calling, OpenAI's Responses `allowed_callers`).
 */
export type ToolCaller = 'direct' | 'programmatic';
export const TOOL_CALLERS: readonly ToolCaller[] = ['direct', 'programmatic'];

/** Built-in tool groups; any other non-empty identifier is a user group. */
export type BuiltinToolGroup = 'search' | 'edit' | 'exec' | 'subtask' | 'meta';
export type ToolGroup = BuiltinToolGroup | (string & {});

/** Network limits of one call. */
export interface NetworkBounds {
  maxRequests?: number;
  maxBytes?: number;
}

/** Resource limits of one call. */
export interface ResourceBounds {
  timeoutMs: number;
  maxMemoryBytes?: number;
  network?: NetworkBounds;
}

/** Everything a declaration says about a tool besides its schemas, with defaults already applied. */
export interface ToolMetadata {
  tier: SafetyTier;
  /** Maximum duration of one call, in milliseconds. */
  timeoutMs: number;
  group?: ToolGroup;
  /** Semver version of the tool's contract. */
  version?: string;
  sideEffects: SideEffect[];
  capabilities: string[];
  determinism: Determinism;
  resources: ResourceBounds;
  /** Whether calls may run concurrently with other parallel calls; defaults to `tier === 'read-only'`. */
  parallel: boolean;
  tags: string[];
  /**
   * What the tool cannot work without from the client behind its call (absent: nothing). Over MCP a call from a client
   * that did not declare one of them is refused before it runs (2026-07-28: `-32021`, naming what is missing).
   */
  requiresClient?: ClientFeature[];
  /** Whether a call may run as a task (absent: never); see {@link TaskSupport}. */
  task?: TaskSupport;
  /**
   * `false` when the author turned strict mode off for this tool (absent: on). Strict mode is still the host's to ask
   * for (`{ strict: true }` of an exporter): a strict export sends every tool strictly whose schema has a strict form in
   * that provider's dialect, except those that say `false`, which it sends as they are, not strict.
   */
  strict?: false;
  /** `true` when the tool's definition is loaded only when a tool search finds it (absent: loaded up front). */
  defer?: true;
  /** Whole-call argument objects that show the model how to call the tool, each valid for `parameters` (absent: none). */
  examples?: Record<string, JsonValue>[];
  /** Who may call the tool, when it is not the model alone (absent: `['direct']`); see {@link ToolCaller}. */
  callers?: ToolCaller[];
}

/** Options an author may give a tool; every field is optional and read statically by the transformer. */
export interface ToolOptions {
  /** Wire name; defaults to the snake_case of the function name. Must match `^[a-zA-Z0-9_-]{1,64}$`. */
  name?: string;
  description?: string;
  tier?: SafetyTier;
  /** A duration such as `'5s'`, `'250ms'`, `'2m'`, or a number of milliseconds. */
  timeout?: string | number;
  group?: ToolGroup;
  version?: string;
  sideEffects?: SideEffect[];
  capabilities?: string[];
  determinism?: Determinism;
  /** A size such as `'256MB'` or a number of bytes. */
  maxMemory?: string | number;
  maxNetworkRequests?: number;
  /** A size such as `'10MB'` or a number of bytes. */
  maxNetworkBytes?: string | number;
  parallel?: boolean;
  tags?: string[];
  /** What the tool cannot work without from the client behind its call: `'elicitation'`, `'sampling'`, `'roots'`. */
  requiresClient?: ClientFeature[];
  /** Whether a call may run as a task the client polls: `'optional'` or `'required'` (see `TaskSupport`). */
  task?: TaskSupport;
  /** `false`: never send this tool in strict mode (default `true`: strict wherever the host exports strictly and the schema allows). */
  strict?: boolean;
  /** Load the tool's definition only when a tool search finds it (default `false`). */
  defer?: boolean;
  /** Whole-call argument objects shown to the model; each is checked against the parameters at build time. */
  examples?: Record<string, JsonValue>[];
  /** Who may call the tool: `'direct'` (the model), `'programmatic'` (code run by a code-execution tool). Default `['direct']`. */
  callers?: ToolCaller[];
  /**
   * The tool's one parameter is an options object whose properties are the declared arguments (as
   * published MCP servers expose them): `scrape(options: ScrapeOptions)` declares `url`, `formats`, ...
   * rather than one `options` argument, and receives the object built from them.
   */
  flatten?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_TIER: SafetyTier = 'side-effecting';
export const DEFAULT_DETERMINISM: Determinism = 'maybe';
