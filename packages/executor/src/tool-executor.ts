import type { ToolRegistry, RegisteredTool } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';
import { runWithToolContext, type ToolCallContext } from '@toolwright/tool';
import { EventBus, type ExecutorEventListener } from './events.js';
import { DoomLoopGuard } from './doom-loop.js';
import type { ToolHooks } from './hooks.js';
import { formatModelMessage } from './model-message.js';
import { errorResult } from './error-result.js';
import { JsonText, type ApprovalHandler, type AuditEntry, type AuditSink, type PathResolver, type PolicyPort, type RiskAssessment, type RiskLevel, type RiskMode, type RiskReport } from './ports.js';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './steps/parse-arguments.js';
import type { ApprovalMemory } from './steps/safety-gate.js';
import { SchemaValidator } from './steps/schema-validator.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from './steps/truncate-output.js';
import type { ToolCall, ToolCallResult } from './tool-call.js';
import type { ToolError } from './tool-error.js';
import { executeToolCall } from './execute-tool-call.js';
import { executeBatch } from './batch.js';
import { FullOutputStore } from './full-output-store.js';
import { SessionApprovals } from './approval-memory.js';
import { explainCall, previewGate, type GatePreview } from './gate-preview.js';
import type { PolicyExplanation } from './policy/explain.js';

export { errorResult };

export type ArgumentDialect = 'json' | 'openai-strict';

/**
 * A per-call risk hook: may mark a call risky by its arguments (it can never make an enforced call
 * safe), and report the protected paths it touches (`{ level: 'risky', protectedPaths: ['.git/config'] }`),
 * which no blanket approval covers.
 */
export type RiskLevelFn = (args: Record<string, unknown>, context: CallContext) => RiskLevel | RiskReport;

export interface ExecutorOptions {
  registry: ToolRegistry;
  /** Where audit records go (default: an in-memory sink — pass a file-backed AuditLog in production). */
  audit?: AuditSink;
  policy?: PolicyPort;
  riskMode?: RiskMode;
  /** Assesses a call's risk; the default applies the tier and the risk mode (see `defaultRiskAssessment`). */
  assessRisk?: (input: { declaration: ToolDeclaration; args: Record<string, unknown>; mode: RiskMode; riskLevel?: RiskLevelFn; context: CallContext }) => RiskAssessment;
  riskLevel?: Record<string, RiskLevelFn>;
  /**
   * Per tool, how its host resolves path arguments (core tools: `coreToolsPathResolvers`, through the
   * workspace): policy path rules, in the gate, `previewGate` and `explainCall` alike, match the paths
   * so resolved as well as spelled, so `private:/.env` or `/abs/ws/.env` cannot dodge `file_read(.env)`.
   */
  pathResolvers?: Record<string, PathResolver>;
  approve?: ApprovalHandler;
  approvals?: ApprovalMemory;
  /** Capabilities granted to callers of this executor (default `['*']`: everything). */
  capabilities?: readonly string[];
  checkCapabilities?: (required: readonly string[], granted: readonly string[]) => { allowed: boolean; missing: string[] };
  maxOutputBytes?: number;
  parseLimits?: Partial<ParseLimits>;
  /** Upper bound on any call's duration, whatever the tool declares. */
  maxTimeoutMs?: number;
  hooks?: readonly ToolHooks[];
  /** Stop a tool repeated with the same arguments and the same result this many times (default 3); `false` disables. */
  doomLoop?: { threshold?: number; action?: 'ask' | 'deny' } | false;
  /** Interval of `tool_call_heartbeat` events while a call runs (default 1000 ms). */
  heartbeatMs?: number;
  /**
   * How models write arguments: `openai-strict` for tools exported with `{ strict: true }` (optional
   * parameters arrive as null, maps as entry lists); they are decoded to the original shape before
   * validation. Default `json`: as declared.
   */
  argumentDialect?: ArgumentDialect;
  /** Full outputs kept for retrieval after truncation (default 256). */
  keepFullOutputs?: number;
}

/** Who is calling and how: carried into the tool's context and the audit log. */
export interface CallContext {
  sessionId?: string;
  taskId?: string;
  actorId?: string;
  workspace?: string;
  /** Cancels the call (or a whole batch). */
  signal?: AbortSignal;
  /** The caller's own limit; the shorter of it and the tool's applies. */
  timeoutMs?: number;
  /** Capabilities of this caller, overriding the executor's default grant. */
  capabilities?: readonly string[];
  /** Overrides the executor's `argumentDialect` for this call. */
  argumentDialect?: ArgumentDialect;
  /** Approval granted out of band and already verified for exactly this call. */
  preApproved?: (call: ToolCall, argsHash: string) => boolean;
}

export interface BatchOptions {
  concurrency?: number;
  /** True once the user interrupted (steering): calls not yet started are skipped. */
  interrupted?: () => boolean;
}

/**
 * The executor: one audited, policy-checked pipeline for every tool call. Expected failures are
 * returned as results whose `content` is the correction text for the model; it throws only for bugs.
 */
export class ToolExecutor {
  readonly registry: ToolRegistry;
  readonly events = new EventBus();
  readonly options: Required<Pick<ExecutorOptions, 'maxOutputBytes' | 'heartbeatMs'>> & ExecutorOptions;
  readonly validator = new SchemaValidator();
  readonly parseLimits: ParseLimits;
  readonly doomLoop: DoomLoopGuard | undefined;
  readonly fullOutputs: FullOutputStore;
  readonly audit: AuditSink;
  readonly approvals: ApprovalMemory;

  constructor(options: ExecutorOptions) {
    this.registry = options.registry;
    this.options = { maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES, heartbeatMs: 1000, ...options };
    this.parseLimits = { ...DEFAULT_PARSE_LIMITS, ...options.parseLimits };
    this.doomLoop = options.doomLoop === false ? undefined : new DoomLoopGuard(options.doomLoop?.threshold ?? 3);
    this.fullOutputs = new FullOutputStore(options.keepFullOutputs ?? 256);
    this.audit = options.audit ?? new MemoryAuditSink();
    this.approvals = options.approvals ?? new SessionApprovals();
  }

  on(listener: ExecutorEventListener): () => void {
    return this.events.on(listener);
  }

  /** Runs one call through the whole pipeline. */
  executeToolCall(call: ToolCall, context: CallContext = {}): Promise<ToolCallResult> {
    return executeToolCall(this, call, context);
  }

  /** Runs one model turn's calls with read parallelism and write barriers; results in call order. Never rejects. */
  executeBatch(calls: readonly ToolCall[], context: CallContext = {}, options: BatchOptions = {}): Promise<ToolCallResult[]> {
    return executeBatch(this, calls, context, options);
  }

  /**
   * What the safety gate would decide for a call, without running or auditing it — for hosts with
   * their own approval UI (the AI SDK's `needsApproval`, the Agents SDK's interruptions): `deny`
   * (the policy refuses; running it returns the refusal), `ask` (a person must approve first; show them
   * `protectedPaths`), `allow`. A call the host approved then runs with `preApproved`; a denial still stands.
   */
  previewGate(name: string, args: Record<string, unknown>, context: CallContext = {}): GatePreview {
    return previewGate(this, name, args, context);
  }

  /** `explainDecision` for a call as this executor takes it: its policy and its own risk assessment. */
  explainCall(name: string, args: Record<string, unknown>, context: CallContext = {}): PolicyExplanation {
    return explainCall(this, name, args, context);
  }

  /** The untruncated output text of a recent call (the model saw a truncated copy). */
  getFullOutput(callId: string): string | undefined {
    return this.fullOutputs.get(callId);
  }

  /** Records a call refused before it reached the executor (e.g. by a UI) and returns its result. */
  async recordRejection(call: ToolCall, error: ToolError, context: CallContext = {}): Promise<ToolCallResult> {
    try {
      await this.audit.append({ type: 'ToolCallRequested', callId: call.id, tool: call.name, args: call.arguments, taskId: context.taskId, actorId: context.actorId });
      await this.audit.append({ type: 'ToolCallRejected', callId: call.id, code: error.code, message: formatModelMessage(call.name, error) });
    } catch {
      // The refusal stands whether or not the log took it; recovery sees a missing record as dangling.
    }
    return errorResult(call, error, 0);
  }

  /** @internal */
  skipped(call: ToolCall, reason: string): ToolCallResult {
    const error: ToolError = { code: 'skipped', reason };
    try {
      void Promise.resolve(this.audit.append({ type: 'ToolCallRejected', callId: call.id, code: 'skipped', message: reason })).catch(() => undefined);
    } catch {
      // A sink that throws loses the record, never the result.
    }
    return errorResult(call, error, 0);
  }

  /** @internal the tool context handed to a running tool. */
  runInContext<T>(context: ToolCallContext, fn: () => Promise<T>): Promise<T> {
    return runWithToolContext(context, fn);
  }

  /** @internal */
  tool(name: string): RegisteredTool | undefined {
    return this.registry.get(name);
  }
}

/** Keeps audit records in memory: for tests and demos. Production passes a durable `AuditLog`. */
export class MemoryAuditSink implements AuditSink {
  readonly records: (AuditEntry & { seq: number; time: string })[] = [];

  async append(entry: AuditEntry): Promise<void> {
    this.record(entry);
  }

  /** Keeps the record as the log file would hold it: `JsonText` fields as values, undefined fields left out. */
  record(entry: AuditEntry): void {
    const record: Record<string, unknown> = { seq: this.records.length + 1, time: new Date().toISOString() };
    for (const [key, value] of Object.entries(entry)) {
      if (value !== undefined) record[key] = value instanceof JsonText ? value.value : value;
    }
    this.records.push(record as AuditEntry & { seq: number; time: string });
  }
}
