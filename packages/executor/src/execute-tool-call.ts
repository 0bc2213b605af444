import type { RegisteredTool } from '@toolwright/registry';
import { decodeOpenAIStrictArguments } from '@toolwright/registry';
import { lookupTool } from './steps/lookup.js';
import { parseArguments } from './steps/parse-arguments.js';
import { passSafetyGate, type GateOutcome } from './steps/safety-gate.js';
import { checkGrantedCapabilities } from './steps/capability-check.js';
import { assessCallRisk } from './steps/assess-risk.js';
import { runTool } from './steps/run-tool.js';
import type { RunOutcome } from './steps/run-with-timeout.js';
import { canonicalJson, normaliseOutput, sha256Hex } from './steps/normalize-output.js';
import { truncateOutput } from './steps/truncate-output.js';
import { applyAfterHooks, applyBeforeHooks } from './steps/apply-hooks.js';
import { CallAudit } from './call-audit.js';
import type { ToolCall, ToolCallResult } from './tool-call.js';
import type { CallContext, ToolExecutor } from './tool-executor.js';

type Step<T> = T | Promise<T>;

/** Runs `next` at once on a value, or when a promise of one settles: the pipeline stays synchronous until something is really awaited. */
function then<T, R>(value: Step<T>, next: (value: T) => Step<R>): Step<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * The pipeline: lookup → parse → validate → hooks → audit (write-ahead) → capabilities → doom loop →
 * policy and approval → run under a deadline → check output → normalise and hash → truncate → audit.
 * Steps run synchronously until one must wait (a hook, an approval, a durable record, the tool), so a
 * read-only call costs the tool's own promise and little else.
 */
export function executeToolCall(executor: ToolExecutor, call: ToolCall, context: CallContext): Promise<ToolCallResult> {
  try {
    return Promise.resolve(admit(executor, call, context));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Lookup, parse, validate and the before-hooks: is this a well-formed call of a known tool? */
function admit(executor: ToolExecutor, call: ToolCall, context: CallContext): Step<ToolCallResult> {
  const audit = new CallAudit(executor, call, context, performance.now());
  const found = lookupTool(executor.registry, call.name);
  if (!found.ok) return audit.reject(found.error, { tool: call.name, args: call.arguments });
  const tool = found.tool;
  const tier = tool.declaration.metadata.tier;
  const parsed = parseArguments(call.arguments, executor.parseLimits);
  if (!parsed.ok) return audit.reject(parsed.error, { tool: call.name, args: call.arguments, tier });
  let args = parsed.value;
  if ((context.argumentDialect ?? executor.options.argumentDialect) === 'openai-strict') {
    args = decodeOpenAIStrictArguments(tool.declaration.parameters, args) as Record<string, unknown>;
  }
  const issues = executor.validator.validate(tool.declaration.parameters, args);
  if (issues.length > 0) return audit.reject({ code: 'invalid_arguments', issues }, { tool: call.name, args, tier });
  if (!executor.options.hooks?.length) return authorise(executor, call, tool, args, context, audit);
  return applyBeforeHooks(executor, call, tool.declaration, args).then((hooked) => (hooked.ok
    ? authorise(executor, call, tool, hooked.args, context, audit)
    : audit.reject(hooked.error, { tool: call.name, args, tier })));
}

/** The write-ahead record, capabilities, the doom-loop guard, then policy and approval. */
function authorise(executor: ToolExecutor, call: ToolCall, tool: RegisteredTool, args: Record<string, unknown>, context: CallContext, audit: CallAudit): Step<ToolCallResult> {
  const { declaration } = tool;
  const argsJson = canonicalJson(args);
  const argsHash = sha256Hex(argsJson);
  return then(audit.requested(declaration, argsJson, argsHash), (written) => {
    if (!written) return audit.failClosed();
    const capabilities = checkGrantedCapabilities(executor, declaration, context);
    audit.note({ type: 'CapabilityCheck', callId: call.id, required: declaration.metadata.capabilities, granted: capabilities.granted, missing: capabilities.missing, allowed: capabilities.allowed });
    if (!capabilities.allowed) return audit.rejectAfterRequest({ code: 'capability_denied', missing: capabilities.missing });

    const doomLoop = executor.options.doomLoop;
    const looping = executor.doomLoop?.isLooping(context.sessionId ?? 'default', call.name, argsHash) ?? false;
    if (looping && doomLoop && doomLoop.action === 'deny') return audit.rejectAfterRequest({ code: 'doom_loop', repeats: doomLoop.threshold ?? 3 });
    const gate = passSafetyGate({
      callId: call.id, declaration, args, argsHash, memory: executor.approvals,
      risk: assessCallRisk(executor, declaration, args, context),
      ...(executor.options.policy ? { policy: executor.options.policy } : {}),
      ...(executor.options.approve ? { approve: executor.options.approve } : {}),
      ...(looping ? { forceAsk: `the same call returned the same result ${doomLoop ? doomLoop.threshold ?? 3 : 3} times in a row` } : {}),
      preApproved: context.preApproved?.(call, argsHash) ?? false,
    });
    return then(gate, (outcome) => execute(executor, call, tool, args, argsHash, context, audit, outcome));
  });
}

/** Runs an admitted call, then checks, normalises, hashes and truncates its output. */
function execute(executor: ToolExecutor, call: ToolCall, tool: RegisteredTool, args: Record<string, unknown>, argsHash: string, context: CallContext, audit: CallAudit, gate: GateOutcome): Step<ToolCallResult> {
  audit.note({ type: 'PolicyDecision', callId: call.id, effect: gate.verdict?.effect ?? 'allow', rule: gate.verdict?.rule?.text, proof: gate.verdict?.proof, approval: gate.approval });
  const proof = gate.verdict?.proof;
  if (!gate.ok) return audit.rejectAfterRequest(gate.error, proof);
  return runTool(executor, call, tool, args, context).then((run: RunOutcome<unknown>) => {
    if (!run.ok) return audit.fail(run.error, proof);
    const output = executor.options.hooks?.length ? applyAfterHooks(executor, call, tool.declaration, args, run.value) : run.value;
    return then(output, (final) => {
      const { returns } = tool.declaration;
      const outputIssues = returns ? executor.validator.validate(returns, final === undefined ? null : final) : [];
      if (outputIssues.length > 0) return audit.fail({ code: 'invalid_output', issues: outputIssues }, proof);
      let normalised;
      try {
        normalised = normaliseOutput(final);
      } catch (error) {
        return audit.fail({ code: 'invalid_output', issues: [{ path: '$', message: (error as Error).message }] }, proof);
      }
      const truncation = truncateOutput(normalised.text, executor.options.maxOutputBytes);
      if (truncation.truncated) executor.fullOutputs.set(call.id, normalised.text);
      executor.doomLoop?.record(context.sessionId ?? 'default', call.name, argsHash, normalised.hash);
      return audit.complete(final, normalised, truncation, proof);
    });
  });
}
