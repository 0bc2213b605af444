import type { ToolDeclaration } from '@toolwright/schema';
import type { EventBus } from './events.js';
import type { CallContext } from './executor-options.js';
import { JsonText, type AuditEntry, type AuditSink, type PolicyProof } from './ports.js';
import type { NormalisedOutput } from './output/normalize-output.js';
import type { ArgumentRepair } from './arguments/repair-arguments.js';
import type { Truncation } from './output/truncate-output.js';
import { escapeTerminalControls } from './terminal-safe.js';
import type { CompletedToolCall, ToolCall, ToolCallResult } from './tool-call.js';
import type { PipelineStage, ToolError } from './tool-error.js';
import { errorResult } from './error-result.js';
import { describeThrown } from './output/describe-thrown.js';
import type { ContentBlock } from '@toolwright/tool';

/**
 * The audit trail of one call. Records of read-only calls are written without waiting (their
 * methods answer at once); a side-effecting or privileged call waits for its `ToolCallRequested`
 * (write-ahead) and its terminal record to be acknowledged, and is refused if the log cannot be written.
 */
export class CallAudit {
  /** Where the call is in the pipeline, kept current by the steps: an unexpected throw is reported with it. */
  stage: PipelineStage = 'lookup';
  /** Repairs made to the arguments (`repairArguments`): recorded with the call's request, with the arguments as sent. */
  repaired: { repairs: ArgumentRepair[]; originalArguments: unknown } | undefined = undefined;
  /** Which cache answered the call instead of its tool (`ExecutorOptions.cache`): said in its `ToolCallCompleted` record. */
  cacheHit: 'disk' | 'memory' | undefined = undefined;
  private durable = false;
  private auditError = '';
  private requestWritten = false;

  constructor(
    private readonly sink: AuditSink,
    private readonly events: EventBus,
    private readonly call: ToolCall,
    private readonly context: CallContext,
    private readonly started: number,
  ) {}

  /** `true` at once for read-only calls; a promise for the rest, false when the log refused the record. */
  requested(declaration: ToolDeclaration, argsJson: string, argsHash: string): true | Promise<boolean> {
    this.durable = declaration.metadata.tier !== 'read-only';
    this.requestWritten = true;
    const entry: AuditEntry = {
      type: 'ToolCallRequested',
      callId: this.call.id,
      tool: this.call.name,
      args: new JsonText(argsJson),
      argsHash,
      tier: declaration.metadata.tier,
      taskId: this.context.taskId,
      actorId: this.context.actorId,
      retryOf: this.context.retryOf,
      ...this.repaired,
    };
    if (!this.durable) {
      this.note(entry);
      return true;
    }
    return this.append(
      entry,
      () => true,
      (error) => {
        this.auditError = describeThrown(error, 'the audit log').message;
        return false;
      },
    );
  }

  /** An informational record nothing waits on; a sink that throws loses it, never the call. */
  note(entry: AuditEntry): void {
    const audit = this.sink;
    try {
      if (audit.record) audit.record(entry);
      else
        void this.append(
          entry,
          () => undefined,
          () => undefined,
        );
    } catch {
      // The sink's own failure: the call's outcome does not depend on an informational record.
    }
  }

  /**
   * Something around the tool threw (a risk hook, a policy, an approver, a sink, a check): the call
   * ends as `internal_error` naming the stage, and is audited like any other refusal or failure.
   */
  internalFailure(thrown: unknown): ToolCallResult | Promise<ToolCallResult> {
    const ran = this.stage === 'run' || this.stage === 'output';
    const { message, errorCode } = describeThrown(thrown, `the ${this.stage.replace('_', ' ')} step`);
    const error: ToolError = { code: 'internal_error', stage: this.stage, message, ran, ...(errorCode ? { errorCode } : {}) };
    try {
      if (!this.requestWritten) {
        this.requestWritten = true;
        this.note({
          type: 'ToolCallRequested',
          callId: this.call.id,
          tool: this.call.name,
          args: this.call.arguments,
          taskId: this.context.taskId,
          actorId: this.context.actorId,
        });
      }
      return ran ? this.fail(error) : this.rejectAfterRequest(error);
    } catch {
      return errorResult(this.call, error, this.elapsed());
    }
  }

  failClosed(): ToolCallResult {
    return this.finish(errorResult(this.call, { code: 'audit_failed', message: this.auditError }, this.elapsed()));
  }

  /** A call refused before it was requested (unknown tool, bad arguments, a blocking hook). */
  reject(error: ToolError, request: { tool: string; args: unknown; tier?: string }): ToolCallResult | Promise<ToolCallResult> {
    this.requestWritten = true;
    this.note({ type: 'ToolCallRequested', callId: this.call.id, ...request, taskId: this.context.taskId, actorId: this.context.actorId, ...this.repaired });
    return this.rejectAfterRequest(error);
  }

  rejectAfterRequest(error: ToolError, proof?: PolicyProof): ToolCallResult | Promise<ToolCallResult> {
    const result = errorResult(this.call, error, this.elapsed(), proof);
    return this.settle({ type: 'ToolCallRejected', callId: this.call.id, code: error.code, message: result.content, ...detailsOf(error) }, result);
  }

  fail(error: ToolError, proof?: PolicyProof): ToolCallResult | Promise<ToolCallResult> {
    const result = errorResult(this.call, error, this.elapsed(), proof);
    return this.settle(
      { type: 'ToolCallFailed', callId: this.call.id, code: error.code, message: result.content, durationMs: result.durationMs, ...detailsOf(error) },
      result,
    );
  }

  complete(
    output: unknown,
    normalised: NormalisedOutput,
    truncation: Truncation,
    proof?: PolicyProof,
    blocks?: readonly ContentBlock[],
  ): ToolCallResult | Promise<ToolCallResult> {
    const durationMs = this.elapsed();
    const result: CompletedToolCall = {
      callId: this.call.id,
      tool: this.call.name,
      status: 'completed',
      content: escapeTerminalControls(truncation.text),
      output,
      truncated: truncation.truncated,
      originalBytes: truncation.originalBytes,
      outputHash: normalised.hash,
      durationMs,
    };
    if (proof !== undefined) result.proof = proof;
    if (blocks !== undefined) result.blocks = blocks;
    if (this.cacheHit !== undefined) result.cacheHit = this.cacheHit;
    return this.settle(
      {
        type: 'ToolCallCompleted',
        callId: this.call.id,
        outputHash: normalised.hash,
        outputBytes: truncation.originalBytes,
        truncated: truncation.truncated,
        durationMs,
        ...(this.cacheHit !== undefined ? { cacheHit: this.cacheHit } : {}),
        output: new JsonText(normalised.normalised),
      },
      result,
    );
  }

  /** Writes the terminal record (waiting for it when the call is durable) and announces the end. */
  private settle(entry: AuditEntry, result: ToolCallResult): ToolCallResult | Promise<ToolCallResult> {
    if (!this.durable) {
      this.note(entry);
      return this.finish(result);
    }
    // The call already ran (or was refused); its outcome stands even if the record cannot be written.
    // Recovery will then see it as dangling.
    return this.append(
      entry,
      () => this.finish(result),
      () => this.finish(result),
    );
  }

  /**
   * The sink's `append`, then `written` or `failed` (with what it threw or rejected with), whatever the
   * sink does (throws, returns no promise); a synchronous throw is handled on the microtask a rejection would be.
   */
  private append<T>(entry: AuditEntry, written: () => T, failed: (error: unknown) => T): Promise<T> {
    let pending: unknown;
    try {
      pending = this.sink.append(entry);
    } catch (error) {
      return Promise.resolve().then(() => failed(error));
    }
    return Promise.resolve(pending).then(written, failed);
  }

  private finish(result: ToolCallResult): ToolCallResult {
    const { events } = this;
    if (events.active)
      events.emit({ type: 'tool_call_end', callId: result.callId, tool: result.tool, state: result.status === 'completed' ? 'completed' : 'error', result });
    return result;
  }

  private elapsed(): number {
    return Math.round((performance.now() - this.started) * 1000) / 1000;
  }
}

/** What a host needs beyond the code: the tool's own error code, the stage of an internal failure. */
function detailsOf(error: ToolError): { errorCode?: string; stage?: PipelineStage } {
  if (error.code === 'tool_failed') return error.errorCode ? { errorCode: error.errorCode } : {};
  if (error.code === 'internal_error') return { stage: error.stage, ...(error.errorCode ? { errorCode: error.errorCode } : {}) };
  return {};
}
