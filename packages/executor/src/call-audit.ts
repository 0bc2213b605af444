import type { ToolDeclaration } from '@toolwright/schema';
import { JsonText, type AuditEntry } from './ports.js';
import type { NormalisedOutput } from './steps/normalize-output.js';
import type { Truncation } from './steps/truncate-output.js';
import type { ToolCall, ToolCallResult } from './tool-call.js';
import type { ToolError } from './tool-error.js';
import { errorResult, type CallContext, type ToolExecutor } from './tool-executor.js';

/**
 * The audit trail of one call. Records of read-only calls are written without waiting (their
 * methods answer at once); a side-effecting or privileged call waits for its `ToolCallRequested`
 * (write-ahead) and its terminal record to be acknowledged, and is refused if the log cannot be written.
 */
export class CallAudit {
  private durable = false;
  private auditError = '';

  constructor(
    private readonly executor: ToolExecutor,
    private readonly call: ToolCall,
    private readonly context: CallContext,
    private readonly started: number,
  ) {}

  /** `true` at once for read-only calls; a promise for the rest, false when the log refused the record. */
  requested(declaration: ToolDeclaration, argsJson: string, argsHash: string): true | Promise<boolean> {
    this.durable = declaration.metadata.tier !== 'read-only';
    const entry: AuditEntry = {
      type: 'ToolCallRequested', callId: this.call.id, tool: this.call.name, args: new JsonText(argsJson), argsHash,
      tier: declaration.metadata.tier, taskId: this.context.taskId, actorId: this.context.actorId,
    };
    if (!this.durable) {
      this.note(entry);
      return true;
    }
    return this.executor.audit.append(entry).then(() => true, (error: unknown) => {
      this.auditError = error instanceof Error ? error.message : String(error);
      return false;
    });
  }

  /** An informational record nothing waits on. */
  note(entry: AuditEntry): void {
    const { audit } = this.executor;
    if (audit.record) audit.record(entry);
    else audit.append(entry).catch(() => undefined);
  }

  failClosed(): ToolCallResult {
    return this.finish(errorResult(this.call, { code: 'audit_failed', message: this.auditError }, this.elapsed()));
  }

  /** A call refused before it was requested (unknown tool, bad arguments, a blocking hook). */
  reject(error: ToolError, request: { tool: string; args: unknown; tier?: string }): ToolCallResult | Promise<ToolCallResult> {
    this.note({ type: 'ToolCallRequested', callId: this.call.id, ...request, taskId: this.context.taskId, actorId: this.context.actorId });
    return this.rejectAfterRequest(error);
  }

  rejectAfterRequest(error: ToolError, proof?: unknown): ToolCallResult | Promise<ToolCallResult> {
    const result = errorResult(this.call, error, this.elapsed(), proof);
    return this.settle({ type: 'ToolCallRejected', callId: this.call.id, code: error.code, message: result.content }, result);
  }

  fail(error: ToolError, proof?: unknown): ToolCallResult | Promise<ToolCallResult> {
    const result = errorResult(this.call, error, this.elapsed(), proof);
    return this.settle({ type: 'ToolCallFailed', callId: this.call.id, code: error.code, message: result.content, durationMs: result.durationMs }, result);
  }

  complete(output: unknown, normalised: NormalisedOutput, truncation: Truncation, proof?: unknown): ToolCallResult | Promise<ToolCallResult> {
    const durationMs = this.elapsed();
    const result: ToolCallResult = {
      callId: this.call.id, tool: this.call.name, status: 'completed', content: truncation.text, output,
      truncated: truncation.truncated, originalBytes: truncation.originalBytes, outputHash: normalised.hash, durationMs,
    };
    if (proof !== undefined) result.proof = proof;
    return this.settle({
      type: 'ToolCallCompleted', callId: this.call.id, outputHash: normalised.hash, outputBytes: truncation.originalBytes,
      truncated: truncation.truncated, durationMs, output: new JsonText(normalised.normalised),
    }, result);
  }

  /** Writes the terminal record (waiting for it when the call is durable) and announces the end. */
  private settle(entry: AuditEntry, result: ToolCallResult): ToolCallResult | Promise<ToolCallResult> {
    if (!this.durable) {
      this.note(entry);
      return this.finish(result);
    }
    // The call already ran (or was refused); its outcome stands even if the record cannot be written.
    // Recovery will then see it as dangling.
    return this.executor.audit.append(entry).then(() => this.finish(result), () => this.finish(result));
  }

  private finish(result: ToolCallResult): ToolCallResult {
    const { events } = this.executor;
    if (events.active) events.emit({ type: 'tool_call_end', callId: result.callId, tool: result.tool, state: result.status === 'completed' ? 'completed' : 'error', result });
    return result;
  }

  private elapsed(): number {
    return Math.round((performance.now() - this.started) * 1000) / 1000;
  }
}
