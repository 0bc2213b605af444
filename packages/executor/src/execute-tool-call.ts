import type { ToolDeclaration } from '@toolwright/schema';
import { decodeOpenAIStrictArguments } from '@toolwright/registry';
import type { ToolProgress } from '@toolwright/tool';
import { lookupTool } from './steps/lookup.js';
import { parseArguments } from './steps/parse-arguments.js';
import { passSafetyGate } from './steps/safety-gate.js';
import { checkGrantedCapabilities } from './steps/capability-check.js';
import { assessCallRisk } from './steps/assess-risk.js';
import { runWithTimeout } from './steps/run-with-timeout.js';
import { canonicalJson, normaliseOutput, sha256Hex } from './steps/normalize-output.js';
import { truncateOutput } from './steps/truncate-output.js';
import { applyAfterHooks, applyBeforeHooks } from './steps/apply-hooks.js';
import { formatModelMessage } from './model-message.js';
import type { AuditEntry } from './ports.js';
import type { ToolCall, ToolCallResult } from './tool-call.js';
import type { ToolError } from './tool-error.js';
import { errorResult, type CallContext, type ToolExecutor } from './tool-executor.js';

/**
 * The pipeline, one step per line: lookup → parse → validate → hooks → capabilities → policy and
 * approval → run under a deadline → check output → normalise and hash → truncate → audit.
 * Write-ahead: `ToolCallRequested` is durable before a side-effecting tool runs (fail closed).
 */
export async function executeToolCall(executor: ToolExecutor, call: ToolCall, context: CallContext): Promise<ToolCallResult> {
  const started = performance.now();
  const audit = new CallAudit(executor, call);
  const found = lookupTool(executor.registry, call.name);
  if (!found.ok) return audit.reject(found.error, started, { tool: call.name, args: call.arguments }, context);
  const { declaration } = found.tool;
  const parsed = parseArguments(call.arguments, executor.parseLimits);
  if (!parsed.ok) return audit.reject(parsed.error, started, { tool: call.name, args: call.arguments, tier: declaration.metadata.tier }, context);
  if ((context.argumentDialect ?? executor.options.argumentDialect) === 'openai-strict') {
    parsed.value = decodeOpenAIStrictArguments(declaration.parameters, parsed.value);
  }
  const issues = executor.validator.validate(declaration.parameters, parsed.value);
  if (issues.length > 0) return audit.reject({ code: 'invalid_arguments', issues }, started, { tool: call.name, args: parsed.value, tier: declaration.metadata.tier }, context);
  const hooked = executor.options.hooks?.length ? await applyBeforeHooks(executor, call, declaration, parsed.value) : { ok: true as const, args: parsed.value };
  if (!hooked.ok) return audit.reject(hooked.error, started, { tool: call.name, args: parsed.value, tier: declaration.metadata.tier }, context);
  const args = hooked.args;
  const argsHash = sha256Hex(canonicalJson(args));
  const requested = audit.requested(declaration, args, argsHash, context);
  if (!(requested === true || (await requested))) return audit.failClosed(started);

  const capabilities = checkGrantedCapabilities(executor, declaration, context);
  audit.note({ type: 'CapabilityCheck', callId: call.id, required: declaration.metadata.capabilities, granted: capabilities.granted, missing: capabilities.missing, allowed: capabilities.allowed });
  if (!capabilities.allowed) return audit.rejectAfterRequest({ code: 'capability_denied', missing: capabilities.missing }, started);

  const looping = executor.doomLoop?.isLooping(context.sessionId ?? 'default', call.name, argsHash) ?? false;
  if (looping && executor.options.doomLoop && executor.options.doomLoop.action === 'deny') {
    return audit.rejectAfterRequest({ code: 'doom_loop', repeats: executor.options.doomLoop.threshold ?? 3 }, started);
  }
  const gateOutcome = passSafetyGate({
    callId: call.id, declaration, args, argsHash, memory: executor.approvals,
    risk: assessCallRisk(executor, declaration, args, context),
    ...(executor.options.policy ? { policy: executor.options.policy } : {}),
    ...(executor.options.approve ? { approve: executor.options.approve } : {}),
    ...(looping ? { forceAsk: `the same call returned the same result ${executor.options.doomLoop ? executor.options.doomLoop.threshold ?? 3 : 3} times in a row` } : {}),
    preApproved: context.preApproved?.(call, argsHash) ?? false,
  });
  const gate = 'then' in gateOutcome ? await gateOutcome : gateOutcome;
  audit.note({ type: 'PolicyDecision', callId: call.id, effect: gate.verdict?.effect ?? 'allow', rule: gate.verdict?.rule?.text, proof: gate.verdict?.proof, approval: gate.approval });
  if (!gate.ok) return audit.rejectAfterRequest(gate.error, started, gate.verdict?.proof);

  const run = await runTool(executor, call, declaration, args, context);
  if (!run.ok) return audit.fail(run.error, started, gate.verdict?.proof);
  const output = executor.options.hooks?.length ? await applyAfterHooks(executor, call, declaration, args, run.value) : run.value;
  const outputIssues = declaration.returns ? executor.validator.validate(declaration.returns, output === undefined ? null : output) : [];
  if (outputIssues.length > 0) return audit.fail({ code: 'invalid_output', issues: outputIssues }, started, gate.verdict?.proof);
  let normalised;
  try {
    normalised = normaliseOutput(output);
  } catch (error) {
    return audit.fail({ code: 'invalid_output', issues: [{ path: '$', message: (error as Error).message }] }, started, gate.verdict?.proof);
  }
  const truncation = truncateOutput(normalised.text, executor.options.maxOutputBytes);
  if (truncation.truncated) executor.fullOutputs.set(call.id, normalised.text);
  executor.doomLoop?.record(context.sessionId ?? 'default', call.name, argsHash, normalised.hash);
  return audit.complete(output, normalised, truncation, started, gate.verdict?.proof);
}

/** Runs the tool under its deadline, with its context, heartbeat and progress events. */
async function runTool(executor: ToolExecutor, call: ToolCall, declaration: ToolDeclaration, args: Record<string, unknown>, context: CallContext) {
  const timeoutMs = Math.min(declaration.metadata.timeoutMs, context.timeoutMs ?? Infinity, executor.options.maxTimeoutMs ?? Infinity);
  const tool = executor.tool(call.name)!;
  const events = executor.events;
  const startedAt = performance.now();
  if (events.active) events.emit({ type: 'tool_call_start', callId: call.id, tool: call.name, state: 'running' });
  const heartbeat = events.active
    ? setInterval(() => events.emit({ type: 'tool_call_heartbeat', callId: call.id, tool: call.name, elapsedMs: Math.round(performance.now() - startedAt) }), executor.options.heartbeatMs)
    : undefined;
  try {
    return await runWithTimeout((lazy) => executor.runInContext({
      callId: call.id, toolName: call.name,
      get signal() { return lazy.signal; },
      ...(context.sessionId !== undefined ? { sessionId: context.sessionId } : {}),
      ...(context.taskId !== undefined ? { taskId: context.taskId } : {}),
      ...(context.actorId !== undefined ? { actorId: context.actorId } : {}),
      ...(context.workspace !== undefined ? { workspace: context.workspace } : {}),
      progress: (update: ToolProgress) => events.emit({ type: 'tool_call_update', callId: call.id, tool: call.name, progress: update }),
    }, () => tool.invoke(args)), timeoutMs, context.signal);
  } finally {
    if (heartbeat) clearInterval(heartbeat);
  }
}

/**
 * The audit trail of one call. Records of read-only calls are written without waiting; a
 * side-effecting or privileged call waits for its `ToolCallRequested` (write-ahead) and its terminal
 * record to be acknowledged, and is refused if the log cannot be written.
 */
class CallAudit {
  private durable = false;

  constructor(private readonly executor: ToolExecutor, private readonly call: ToolCall) {}

  /** `true` at once for read-only calls (records written without waiting); a promise for the rest. */
  requested(declaration: ToolDeclaration, args: unknown, argsHash: string, context: CallContext): true | Promise<boolean> {
    this.durable = declaration.metadata.tier !== 'read-only';
    const entry: AuditEntry = {
      type: 'ToolCallRequested', callId: this.call.id, tool: this.call.name, args, argsHash, tier: declaration.metadata.tier,
      ...(context.taskId !== undefined ? { taskId: context.taskId } : {}), ...(context.actorId !== undefined ? { actorId: context.actorId } : {}),
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

  private auditError = '';

  note(entry: AuditEntry): void {
    const { audit } = this.executor;
    if (audit.record) audit.record(entry);
    else audit.append(entry).catch(() => undefined);
  }

  failClosed(started: number): ToolCallResult {
    return this.finish(errorResult(this.call, { code: 'audit_failed', message: this.auditError }, elapsed(started)));
  }

  async reject(error: ToolError, started: number, request: Record<string, unknown>, context: CallContext): Promise<ToolCallResult> {
    this.note({ type: 'ToolCallRequested', callId: this.call.id, ...request,
      ...(context.taskId !== undefined ? { taskId: context.taskId } : {}), ...(context.actorId !== undefined ? { actorId: context.actorId } : {}) });
    return this.rejectAfterRequest(error, started);
  }

  async rejectAfterRequest(error: ToolError, started: number, proof?: unknown): Promise<ToolCallResult> {
    await this.write({ type: 'ToolCallRejected', callId: this.call.id, code: error.code, message: formatModelMessage(this.call.name, error) });
    return this.finish(errorResult(this.call, error, elapsed(started), proof));
  }

  async fail(error: ToolError, started: number, proof?: unknown): Promise<ToolCallResult> {
    const durationMs = elapsed(started);
    await this.write({ type: 'ToolCallFailed', callId: this.call.id, code: error.code, message: formatModelMessage(this.call.name, error), durationMs });
    return this.finish(errorResult(this.call, error, durationMs, proof));
  }

  async complete(output: unknown, normalised: { hash: string; normalised: string }, truncation: { text: string; truncated: boolean; originalBytes: number }, started: number, proof?: unknown): Promise<ToolCallResult> {
    const durationMs = elapsed(started);
    await this.write({
      type: 'ToolCallCompleted', callId: this.call.id, outputHash: normalised.hash, outputBytes: truncation.originalBytes,
      truncated: truncation.truncated, durationMs, output: output === undefined ? null : output,
    });
    return this.finish({
      callId: this.call.id, tool: this.call.name, status: 'completed', content: truncation.text, output,
      truncated: truncation.truncated, originalBytes: truncation.originalBytes, outputHash: normalised.hash, durationMs,
      ...(proof !== undefined ? { proof } : {}),
    });
  }

  private async write(entry: AuditEntry): Promise<void> {
    if (!this.durable) return this.note(entry);
    try {
      await this.executor.audit.append(entry);
    } catch {
      // The call already ran (or was refused); its outcome stands. Recovery will see it as dangling.
    }
  }

  private finish(result: ToolCallResult): ToolCallResult {
    const { events } = this.executor;
    if (events.active) events.emit({ type: 'tool_call_end', callId: result.callId, tool: result.tool, state: result.status === 'completed' ? 'completed' : 'error', result });
    return result;
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}
