import type { ToolRegistry, RegisteredTool } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';
import { runWithToolContext, type ToolCallContext } from '@toolwright/tool';
import { EventBus, type ExecutorEventListener } from './events.js';
import { DoomLoopGuard } from './doom-loop.js';
import type { ToolHooks } from './hooks.js';
import { formatModelMessage } from './model-message.js';
import { JsonText, type ApprovalHandler, type AuditEntry, type AuditSink, type PolicyPort, type RiskLevel, type RiskMode } from './ports.js';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './steps/parse-arguments.js';
import type { ApprovalMemory } from './steps/safety-gate.js';
import { SchemaValidator } from './steps/schema-validator.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from './steps/truncate-output.js';
import type { ToolCall, ToolCallResult } from './tool-call.js';
import type { ToolError } from './tool-error.js';
import { executeToolCall } from './execute-tool-call.js';
import { runBatch } from './batch.js';
import { resourcesOf } from './call-resources.js';
import { parseArguments } from './steps/parse-arguments.js';
import { FullOutputStore } from './full-output-store.js';
import { SessionApprovals } from './approval-memory.js';
import { assessCallRisk } from './steps/assess-risk.js';
import { canonicalJson, sha256Hex } from './steps/normalize-output.js';

export type ArgumentDialect = 'json' | 'openai-strict';

/** A per-call risk hook: may mark a call risky by its arguments (it can never make an enforced call safe). */
export type RiskLevelFn = (args: Record<string, unknown>, context: CallContext) => RiskLevel;

export interface ExecutorOptions {
  registry: ToolRegistry;
  /** Where audit records go (default: an in-memory sink — pass a file-backed AuditLog in production). */
  audit?: AuditSink;
  policy?: PolicyPort;
  riskMode?: RiskMode;
  /** Assesses a call's risk; the default applies the tier and the risk mode (see `defaultRiskAssessment`). */
  assessRisk?: (input: { declaration: ToolDeclaration; args: Record<string, unknown>; mode: RiskMode; riskLevel?: RiskLevelFn; context: CallContext }) => { level: RiskLevel; reason: string };
  riskLevel?: Record<string, RiskLevelFn>;
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

  /** Runs one model turn's calls with read parallelism and write barriers; results in call order. */
  async executeBatch(calls: readonly ToolCall[], context: CallContext = {}, options: BatchOptions = {}): Promise<ToolCallResult[]> {
    const batchId = `batch_${calls[0]?.id ?? 'empty'}_${calls.length}`;
    this.events.emit({ type: 'tool_calls_batch_start', batchId, callIds: calls.map((c) => c.id) });
    const entries = calls.map((call) => {
      const declaration = this.registry.get(call.name)?.declaration;
      const parsed = declaration ? parseArguments(call.arguments, this.parseLimits) : undefined;
      return { call, resources: resourcesOf(declaration, parsed?.ok ? parsed.value : undefined) };
    });
    const results = await runBatch(entries, (call) => this.executeToolCall(call, context),
      (call, reason) => this.skipped(call, reason), {
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        interrupted: () => Boolean(options.interrupted?.() || context.signal?.aborted),
      });
    this.events.emit({ type: 'tool_calls_batch_end', batchId, results });
    return results;
  }

  /**
   * What the safety gate would decide for a call, without running or auditing it — for hosts with
   * their own approval UI (the AI SDK's `needsApproval`, the Agents SDK's interruptions): `deny`
   * (the policy refuses; running it returns the refusal), `ask` (a person must approve first),
   * `allow`. A call the host approved then runs with `preApproved`; a denial still stands.
   */
  previewGate(name: string, args: Record<string, unknown>, context: CallContext = {}): { decision: 'allow' | 'ask' | 'deny'; reason: string } {
    const declaration = this.registry.get(name)?.declaration;
    if (!declaration) return { decision: 'allow', reason: 'unknown tools fail at lookup' };
    const verdict = this.options.policy?.decide({ tool: name, args, declaration });
    if (verdict?.effect === 'deny') return { decision: 'deny', reason: verdict.rule?.reason ?? `policy rule ${verdict.rule?.text ?? '(default)'}` };
    const risk = assessCallRisk(this, declaration, args, context);
    const reasons = [...(verdict?.effect === 'ask' ? [`policy rule ${verdict.rule?.text ?? '(default)'} asks for approval`] : []), ...(risk.level === 'risky' ? [risk.reason] : [])];
    if (reasons.length === 0) return { decision: 'allow', reason: 'auto-run' };
    const request = { callId: '', tool: name, args, argsHash: sha256Hex(canonicalJson(args)), reason: reasons.join('; '), declaration };
    if (this.approvals.lookup(request)) return { decision: 'allow', reason: 'approved earlier in this session' };
    return { decision: 'ask', reason: request.reason };
  }

  /** The untruncated output text of a recent call (the model saw a truncated copy). */
  getFullOutput(callId: string): string | undefined {
    return this.fullOutputs.get(callId);
  }

  /** Records a call refused before it reached the executor (e.g. by a UI) and returns its result. */
  async recordRejection(call: ToolCall, error: ToolError, context: CallContext = {}): Promise<ToolCallResult> {
    await this.audit.append({ type: 'ToolCallRequested', callId: call.id, tool: call.name, args: call.arguments, taskId: context.taskId, actorId: context.actorId });
    await this.audit.append({ type: 'ToolCallRejected', callId: call.id, code: error.code, message: formatModelMessage(call.name, error) });
    return errorResult(call, error, 0);
  }

  /** @internal */
  skipped(call: ToolCall, reason: string): ToolCallResult {
    const error: ToolError = { code: 'skipped', reason };
    void this.audit.append({ type: 'ToolCallRejected', callId: call.id, code: 'skipped', message: reason }).catch(() => undefined);
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

export function errorResult(call: ToolCall, error: ToolError, durationMs: number, proof?: unknown): ToolCallResult {
  return {
    callId: call.id, tool: call.name, status: 'error', content: formatModelMessage(call.name, error), error,
    truncated: false, durationMs, ...(proof !== undefined ? { proof } : {}),
  };
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
