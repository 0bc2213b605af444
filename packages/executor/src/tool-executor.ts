import type { ToolRegistry } from '@toolwright/registry';
import { EventBus, type ExecutorEventListener } from './events.js';
import type { BatchOptions, CallContext, ExecutorOptions } from './executor-options.js';
import { formatModelMessage } from './model-message.js';
import { errorResult } from './error-result.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import type { AuditSink } from './ports.js';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './arguments/parse-arguments.js';
import { DoomLoopGuard } from './steps/doom-loop.js';
import { SchemaValidator } from './arguments/schema-validator.js';
import { DEFAULT_MAX_OUTPUT_CHARS } from './output/truncate-output.js';
import { describeThrown } from './output/describe-thrown.js';
import type { PipelineStep } from './call-state.js';
import type { ToolCall, ToolCallResult } from './tool-call.js';
import type { ToolError } from './tool-error.js';
import { buildPipeline, executeToolCall } from './execute-tool-call.js';
import type { PipelineServices } from './pipeline-services.js';
import { executeBatch } from './batch.js';
import { FullOutputStore } from './full-output-store.js';
import { SessionApprovals, type ApprovalMemory } from './approval-memory.js';
import { explainCall, previewGate, type GatePreview } from './gate-preview.js';
import type { PolicyExplanation } from './gate/explain.js';
import { sanitiseCall } from './sanitise-call.js';
import { JudgedCalls } from './gate/judged-calls.js';
import type { JudgedCall } from './judged-call.js';
import { judgeCall, type CallToJudge } from './judge-call.js';
import { OutputCache } from './cache/output-cache.js';

/**
 * The executor: one audited, policy-checked pipeline for every tool call. Expected failures are
 * returned as results whose `content` is the correction text for the model; it throws only for bugs.
 */
export class ToolExecutor {
  readonly registry: ToolRegistry;
  readonly events = new EventBus();
  readonly audit: AuditSink;
  readonly approvals: ApprovalMemory;
  readonly parseLimits: ParseLimits;
  private readonly services: PipelineServices;
  private readonly pipeline: readonly PipelineStep[];

  constructor(options: ExecutorOptions) {
    this.registry = options.registry;
    this.parseLimits = { ...DEFAULT_PARSE_LIMITS, ...options.parseLimits };
    this.audit = options.audit ?? new MemoryAuditSink();
    this.approvals = options.approvals ?? new SessionApprovals();
    const doomLoop = options.doomLoop === false ? undefined : (options.doomLoop ?? {});
    this.services = {
      options: {
        ...options,
        // After the spread: an explicit `heartbeatMs: undefined` (or 0, NaN) meant a heartbeat every millisecond.
        heartbeatMs: typeof options.heartbeatMs === 'number' && options.heartbeatMs >= 1 ? options.heartbeatMs : 1000,
        maxOutputChars: options.maxOutputChars ?? options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_CHARS,
      },
      registry: this.registry,
      audit: this.audit,
      events: this.events,
      validator: new SchemaValidator(),
      parseLimits: this.parseLimits,
      approvals: this.approvals,
      judgedCalls: new JudgedCalls(),
      fullOutputs: new FullOutputStore(options.keepFullOutputs ?? 256),
      cache: options.cache ? new OutputCache(options.cache, options.workspace) : undefined,
      doomLoop: doomLoop && {
        guard: new DoomLoopGuard(doomLoop.threshold ?? 3),
        threshold: doomLoop.threshold ?? 3,
        action: doomLoop.action ?? 'ask',
        per: doomLoop.per ?? 'caller',
      },
    };
    this.pipeline = buildPipeline(this.services);
  }

  on(listener: ExecutorEventListener): () => void {
    return this.events.on(listener);
  }

  /** Runs one call through the whole pipeline (see `buildPipeline`). Never rejects. */
  executeToolCall(call: ToolCall, context: CallContext = {}): Promise<ToolCallResult> {
    try {
      const wellFormed = typeof call === 'object' && call !== null && typeof call.id === 'string' && typeof call.name === 'string' ? call : sanitiseCall(call);
      return executeToolCall(this.pipeline, this.audit, this.events, wellFormed, context);
    } catch (error) {
      return Promise.resolve(
        errorResult(sanitiseCall(call), { code: 'internal_error', stage: 'lookup', ran: false, message: describeThrown(error, 'the call').message }, 0),
      );
    }
  }

  /** Runs one model turn's calls with read parallelism and write barriers; results in call order. Never rejects. */
  executeBatch(calls: readonly ToolCall[], context: CallContext = {}, options: BatchOptions = {}): Promise<ToolCallResult[]> {
    return executeBatch(
      {
        registry: this.registry,
        events: this.events,
        parseLimits: this.parseLimits,
        run: (call) => this.executeToolCall(call, context),
        skip: (call, reason) => this.skipped(call, reason),
      },
      calls,
      context,
      options,
    );
  }

  /**
   * What the safety gate would decide for a call, without running or auditing it — for hosts with
   * their own approval UI (the Agents SDK's interruptions; `judgeCall` carries the judgement to the run): `deny`
   * (the policy refuses; running it returns the refusal), `ask` (a person must approve first; show them
   * `protectedPaths` and `escalation`), `allow`. A call the host approved then runs with `preApproved`; a
   * denial still stands, and an escalation runs only on the `approve` handler's `confirmEscalation`.
   */
  previewGate(name: string, args: Record<string, unknown>, context: CallContext = {}): GatePreview {
    return previewGate(this.gateServices(), name, args, context);
  }

  /**
   * The gate's judgement of a call ahead of its run, for hosts with their own approval flow (the AI SDK's
   * `toolApproval`): what `previewGate` says, bound to the call (`callId`, `tool`, `argsHash`). Hand it to the run
   * (`context.judged`) and the pipeline takes it instead of judging the call again — once, within ten minutes, for
   * those arguments; a run not handed it (or handed one that does not fit) judges the call itself. A judged `ask`
   * runs only with an approval (`preApproved` for the person's yes in the host's flow, else the `approve` handler).
   */
  judgeCall(call: CallToJudge, context: CallContext = {}): JudgedCall {
    return judgeCall(this.gateServices(), this.services.judgedCalls, call, context);
  }

  /** `explainDecision` for a call as this executor takes it: its policy and its own risk assessment. */
  explainCall(name: string, args: Record<string, unknown>, context: CallContext = {}): PolicyExplanation {
    return explainCall(this.gateServices(), name, args, context);
  }

  /** The untruncated model-facing text of a recent call (the model saw a truncated copy). */
  getFullOutput(callId: string): string | undefined {
    return this.services.fullOutputs.get(callId);
  }

  /** Records a call refused before it reached the executor (e.g. by a UI) and returns its result. */
  async recordRejection(call: ToolCall, error: ToolError, context: CallContext = {}): Promise<ToolCallResult> {
    try {
      await this.audit.append({
        type: 'ToolCallRequested',
        callId: call.id,
        tool: call.name,
        args: call.arguments,
        taskId: context.taskId,
        actorId: context.actorId,
      });
      await this.audit.append({ type: 'ToolCallRejected', callId: call.id, code: error.code, message: formatModelMessage(call.name, error) });
    } catch {
      // The refusal stands whether or not the log took it; recovery sees a missing record as dangling.
    }
    return errorResult(call, error, 0);
  }

  private skipped(call: ToolCall, reason: string): ToolCallResult {
    const error: ToolError = { code: 'skipped', reason };
    try {
      void Promise.resolve(this.audit.append({ type: 'ToolCallRejected', callId: call.id, code: 'skipped', message: reason })).catch(() => undefined);
    } catch {
      // A sink that throws loses the record, never the result.
    }
    return errorResult(call, error, 0);
  }

  private gateServices() {
    const { options } = this.services;
    return { registry: this.registry, policy: options.policy, risk: options, pathResolvers: options.pathResolvers, approvals: this.approvals };
  }
}
