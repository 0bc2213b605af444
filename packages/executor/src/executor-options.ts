import type { ToolRegistry } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';
import type { WorkspaceRules } from '@toolwright/tool';
import type { ApprovalMemory } from './approval-memory.js';
import type { ToolHooks } from './hooks.js';
import type {
  ApprovalHandler,
  AuditSink,
  AskHandler,
  ElicitHandler,
  PathResolver,
  PolicyPort,
  RiskAssessment,
  RiskLevel,
  RiskMode,
  RiskReport,
} from './ports.js';
import type { ParseLimits } from './arguments/parse-arguments.js';
import type { ArgumentRepairs } from './arguments/repair-arguments.js';
import type { ToolCall } from './tool-call.js';
import type { JudgedCall } from './judged-call.js';
import type { OutputCacheOptions } from './cache/output-cache.js';
import type { OfferedTools } from './offered-tools.js';

/**
 * A per-call risk hook: may mark a call risky by its arguments (it can never make an enforced call
 * safe), and report the protected paths it touches (`{ level: 'risky', protectedPaths: ['.git/config'] }`),
 * which no blanket approval covers, or that it is an escalation (`{ level: 'risky', escalation: 'it runs
 * "npm install" outside the kernel sandbox' }`), which only a person confirming it approves.
 */
export type RiskLevelFn = (args: Record<string, unknown>, context: CallContext) => RiskLevel | RiskReport;

/**
 * A provider dialect's argument decoding, run once after parsing and before validation: e.g. tools
 * exported with `toOpenAIChatTools(..., { strict: true })` receive nulls for omitted optionals and
 * maps as entry lists, which `(args, d) => decodeOpenAIStrictCall(d, args)` undoes (a tool with `strict: false` is sent as it is).
 */
export type ArgumentDecoder = (args: Record<string, unknown>, declaration: ToolDeclaration) => Record<string, unknown>;

export interface ExecutorOptions {
  registry: ToolRegistry;
  /** Where audit records go (default: an in-memory sink — pass a file-backed AuditLog in production). */
  audit?: AuditSink;
  policy?: PolicyPort;
  riskMode?: RiskMode;
  /** Assesses a call's risk; the default applies the tier and the risk mode (see `defaultRiskAssessment`). */
  assessRisk?: (input: {
    declaration: ToolDeclaration;
    args: Record<string, unknown>;
    mode: RiskMode;
    riskLevel?: RiskLevelFn;
    context: CallContext;
  }) => RiskAssessment;
  riskLevel?: Record<string, RiskLevelFn>;
  /**
   * Per tool, how its host resolves path arguments (core tools: `coreToolsPathResolvers`, through the
   * workspace): policy path rules, in the gate, `previewGate` and `explainCall` alike, match the paths
   * so resolved as well as spelled, so `private:/.env` or `/abs/ws/.env` cannot dodge `file_read(.env)`.
   */
  pathResolvers?: Record<string, PathResolver>;
  approve?: ApprovalHandler;
  approvals?: ApprovalMemory;
  /**
   * Asks a person a running tool's forms (`getToolContext().elicit`, and the forms of `.ask` one by one) where there is
   * no `ask` handler; without either every question is `unavailable`.
   */
  elicit?: ElicitHandler;
  /**
   * Asks the client behind a call all of a round's questions (`getToolContext().ask` and `.elicit`): forms, samples
   * of its model, its roots. Takes precedence over `elicit`.
   */
  ask?: AskHandler;
  /** Capabilities granted to callers of this executor (default `['*']`: everything). */
  capabilities?: readonly string[];
  /** The workspace root handed to each tool's context (`getToolContext().workspace`) when the call names none. */
  workspace?: string;
  /**
   * What the workspace keeps from tools (protected and hidden paths, as the core tools' workspace has them), handed to
   * each tool's context with the workspace: tools that reach files by their own means (source tools) apply it.
   */
  workspaceRules?: WorkspaceRules;
  checkCapabilities?: (required: readonly string[], granted: readonly string[]) => { allowed: boolean; missing: string[] };
  /**
   * Most characters (UTF-16 code units) of model-facing text a call returns uncut (default 16,384);
   * tools read it as `getToolContext().outputBudget`. Longer text keeps its head and tail and says
   * exactly what was cut (see `truncateOutput`).
   */
  maxOutputChars?: number;
  /** @deprecated the same limit under its former name (it always counted characters for ASCII text); use `maxOutputChars`. */
  maxOutputBytes?: number;
  parseLimits?: Partial<ParseLimits>;
  /** Upper bound on any call's duration, whatever the tool declares. */
  maxTimeoutMs?: number;
  hooks?: readonly ToolHooks[];
  /**
   * Stop a tool repeated with the same arguments and the same result this many times (default 3); `false` disables.
   * `per`: whose calls are compared — each caller's (default: the call's `repeatScope`, else its session, else all
   * of this executor's calls together; off for a call whose `repeatScope` is `false`), or the whole `executor`'s.
   */
  doomLoop?: { threshold?: number; action?: 'ask' | 'deny'; per?: 'caller' | 'executor' } | false;
  /** Interval of `tool_call_heartbeat` events while a call runs (default 1000 ms). */
  heartbeatMs?: number;
  /** The dialect's argument decoding for every call (see `ArgumentDecoder`); default none: arguments as declared. */
  decodeArguments?: ArgumentDecoder;
  /**
   * Repairs of arguments models commonly get wrong (off by default; `true` turns all on, or pick them; see
   * `ArgumentRepairs`). Each repaired call's `ToolCallRequested` record lists the repairs and keeps the
   * arguments as sent (`originalArguments`).
   */
  repairArguments?: boolean | ArgumentRepairs;
  /** Full outputs kept for retrieval after truncation (default 256; 0 keeps none). */
  keepFullOutputs?: number;
  /**
   * Output caching (off by default) of read-only tools with no side effects: `pure` ones' outputs on disk by argument
   * hash, across sessions (`dir`, default a per-user folder outside the workspace; `maxBytes`), `deterministic` ones' in
   * this executor's memory per session. Looked up after policy and approval; a hit's `ToolCallCompleted` record says
   * `cacheHit`. See `OutputCacheOptions`.
   */
  cache?: OutputCacheOptions;
}

/** Who is calling and how: carried into the tool's context and the audit log. */
export interface CallContext {
  sessionId?: string;
  /**
   * Whose calls the repeated-call guard compares this one with (before the session): a server of many clients names
   * the client (one authenticated by a token), or says `false` where it cannot tell its clients apart — the guard then
   * leaves the call alone, rather than let one client's calls count against another's.
   */
  repeatScope?: string | false;
  taskId?: string;
  actorId?: string;
  /**
   * The call this one answers again (an MCP 2026-07-28 retry that brings answers to what an earlier round asked): its
   * `ToolCallRequested` record names it, so the rounds of one call read as one in the audit log.
   */
  retryOf?: string;
  workspace?: string;
  /** What `workspace` keeps from tools; overrides `ExecutorOptions.workspaceRules`. */
  workspaceRules?: WorkspaceRules;
  /** Cancels the call (or a whole batch). */
  signal?: AbortSignal;
  /** The caller's own limit; the shorter of it and the tool's applies. */
  timeoutMs?: number;
  /** Capabilities of this caller, overriding the executor's default grant. */
  capabilities?: readonly string[];
  /** Approval granted out of band and already verified for exactly this call. */
  preApproved?: (call: ToolCall, argsHash: string) => boolean;
  /**
   * The gate's judgement of this call made ahead of the run (`ToolExecutor.judgeCall`): the run takes it instead of
   * judging the call again, when it is this executor's, for this call id, tool and arguments, unexpired and unused;
   * otherwise the run judges the call itself. A judged `ask` still needs an approval (`preApproved`, the approver).
   */
  judged?: JudgedCall;
  /**
   * The tools the model was offered (a `DeferredToolSet`): a call of any other registered tool is refused at lookup —
   * `unknown_tool`, or `tool_not_loaded` for a deferred tool, telling the model to find it with the search tool first.
   * Absent: every registered tool may be called.
   */
  offeredTools?: OfferedTools;
}

export interface BatchOptions {
  concurrency?: number;
  /** True once the user interrupted (steering): calls not yet started are skipped. */
  interrupted?: () => boolean;
}
