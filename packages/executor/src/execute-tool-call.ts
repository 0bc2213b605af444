import type { RegisteredTool } from '@toolwright/registry';
import { decodeOpenAIStrictArguments } from '@toolwright/registry';
import { lookupTool } from './steps/lookup.js';
import { parseArguments } from './steps/parse-arguments.js';
import { passSafetyGate, type GateOutcome } from './steps/safety-gate.js';
import { checkGrantedCapabilities } from './steps/capability-check.js';
import { assessCallRisk } from './steps/assess-risk.js';
import { runTool } from './steps/run-tool.js';
import type { RunOutcome } from './steps/run-with-timeout.js';
import { canonicalJson, MAX_JSON_CHARS, MAX_JSON_NODES, normaliseOutput, OutputTooLargeError, sha256Hex } from './steps/normalize-output.js';
import { truncateOutput } from './steps/truncate-output.js';
import { applyAfterHooks, applyBeforeHooks } from './steps/apply-hooks.js';
import { describeThrown } from './steps/describe-thrown.js';
import { CallAudit } from './call-audit.js';
import type { ToolCall, ToolCallResult } from './tool-call.js';
import type { CallContext, ToolExecutor } from './tool-executor.js';
import { errorResult } from './error-result.js';
import { sanitiseCall } from './sanitise-call.js';
import { bindPathResolver } from './policy/path-subject.js';

type Step<T> = T | Promise<T>;

/**
 * Runs `next` at once on a value, or when a promise of one settles: the pipeline stays synchronous until
 * something is really awaited. After a wait, a rejection or a throw in `next` ends the call as an
 * internal failure (before it, the caller's `try` catches it): the returned promise never rejects.
 */
function then<T>(value: Step<T>, next: (value: T) => Step<ToolCallResult>, audit: CallAudit): Step<ToolCallResult> {
  if (!(value instanceof Promise)) return next(value);
  return value.then((settled) => {
    try {
      return next(settled);
    } catch (error) {
      return audit.internalFailure(error);
    }
  }, (error: unknown) => audit.internalFailure(error));
}

/**
 * The pipeline: lookup → parse → validate → hooks → audit (write-ahead) → capabilities → doom loop →
 * policy and approval → run under a deadline → normalise and hash (bounded) → check output → truncate → audit.
 * Steps run synchronously until one must wait (a hook, an approval, a durable record, the tool), so a
 * read-only call costs the tool's own promise and little else. It never rejects: whatever a model, a
 * tool, a hook, a policy, a risk hook, an approver or a sink does becomes a result (`internal_error`
 * names the stage of anything unexpected, and the call is audited).
 */
export function executeToolCall(executor: ToolExecutor, call: ToolCall, context: CallContext): Promise<ToolCallResult> {
  let audit: CallAudit | undefined;
  try {
    const wellFormed = typeof call === 'object' && call !== null && typeof call.id === 'string' && typeof call.name === 'string' ? call : sanitiseCall(call);
    audit = new CallAudit(executor, wellFormed, context ?? {}, performance.now());
    return Promise.resolve(admit(executor, wellFormed, context ?? {}, audit));
  } catch (error) {
    if (audit) return Promise.resolve(audit.internalFailure(error));
    return Promise.resolve(errorResult(sanitiseCall(call), { code: 'internal_error', stage: 'lookup', ran: false, message: describeThrown(error, 'the call').message }, 0));
  }
}

/** Lookup, parse, validate and the before-hooks: is this a well-formed call of a known tool? */
function admit(executor: ToolExecutor, call: ToolCall, context: CallContext, audit: CallAudit): Step<ToolCallResult> {
  const found = lookupTool(executor.registry, call.name);
  if (!found.ok) return audit.reject(found.error, { tool: call.name, args: call.arguments });
  const tool = found.tool;
  const tier = tool.declaration.metadata.tier;
  audit.stage = 'arguments';
  const parsed = parseArguments(call.arguments, executor.parseLimits);
  if (!parsed.ok) return audit.reject(parsed.error, { tool: call.name, args: call.arguments, tier });
  let args = parsed.value;
  if ((context.argumentDialect ?? executor.options.argumentDialect) === 'openai-strict') {
    args = decodeOpenAIStrictArguments(tool.declaration.parameters, args) as Record<string, unknown>;
  }
  const issues = executor.validator.validate(tool.declaration.parameters, args);
  if (issues.length > 0) return audit.reject({ code: 'invalid_arguments', issues }, { tool: call.name, args, tier });
  if (!executor.options.hooks?.length) return authorise(executor, call, tool, args, context, audit);
  audit.stage = 'hooks';
  return then(applyBeforeHooks(executor, call, tool.declaration, args), (hooked) => (hooked.ok
    ? authorise(executor, call, tool, hooked.args, context, audit)
    : audit.reject(hooked.error, { tool: call.name, args, tier })), audit);
}

/** The write-ahead record, capabilities, the doom-loop guard, then policy and approval. */
function authorise(executor: ToolExecutor, call: ToolCall, tool: RegisteredTool, args: Record<string, unknown>, context: CallContext, audit: CallAudit): Step<ToolCallResult> {
  const { declaration } = tool;
  audit.stage = 'arguments';
  const argsJson = canonicalJson(args, 'the arguments');
  const argsHash = sha256Hex(argsJson);
  audit.stage = 'audit';
  return then(audit.requested(declaration, argsJson, argsHash), (written) => {
    if (!written) return audit.failClosed();
    audit.stage = 'capabilities';
    const capabilities = checkGrantedCapabilities(executor, declaration, context);
    audit.note({ type: 'CapabilityCheck', callId: call.id, required: declaration.metadata.capabilities, granted: capabilities.granted, missing: capabilities.missing, allowed: capabilities.allowed });
    if (!capabilities.allowed) return audit.rejectAfterRequest({ code: 'capability_denied', missing: capabilities.missing });

    audit.stage = 'doom_loop';
    const doomLoop = executor.options.doomLoop;
    const looping = executor.doomLoop?.isLooping(context.sessionId ?? 'default', call.name, argsHash) ?? false;
    if (looping && doomLoop && doomLoop.action === 'deny') return audit.rejectAfterRequest({ code: 'doom_loop', repeats: doomLoop.threshold ?? 3 });
    const { preApproved } = context;
    const gate = passSafetyGate({
      callId: call.id, declaration, args, argsHash, memory: executor.approvals, progress: audit,
      risk: () => assessCallRisk(executor, declaration, args, context),
      policy: executor.options.policy, approve: executor.options.approve,
      resolvePath: bindPathResolver(executor.options.pathResolvers?.[call.name], declaration, args),
      forceAsk: looping ? `the same call returned the same result ${doomLoop ? doomLoop.threshold ?? 3 : 3} times in a row` : undefined,
      preApproved: preApproved ? () => preApproved(call, argsHash) === true : undefined,
    });
    return then(gate, (outcome) => execute(executor, call, tool, args, argsHash, context, audit, outcome), audit);
  }, audit);
}

/** Runs an admitted call, then normalises and hashes (within the size budget), checks and truncates its output. */
function execute(executor: ToolExecutor, call: ToolCall, tool: RegisteredTool, args: Record<string, unknown>, argsHash: string, context: CallContext, audit: CallAudit, gate: GateOutcome): Step<ToolCallResult> {
  audit.note({ type: 'PolicyDecision', callId: call.id, effect: gate.verdict?.effect ?? 'allow', rule: gate.verdict?.rule?.text, proof: gate.verdict?.proof, approval: gate.approval });
  const proof = gate.verdict?.proof;
  if (!gate.ok) return audit.rejectAfterRequest(gate.error, proof);
  audit.stage = 'run';
  return then(runTool(executor, call, tool, args, context), (run: RunOutcome<unknown>) => {
    if (!run.ok) return audit.fail(run.error, proof);
    audit.stage = 'output';
    const output = executor.options.hooks?.length ? applyAfterHooks(executor, call, tool.declaration, args, run.value) : run.value;
    return then(output, (final) => {
      let normalised;
      try {
        normalised = normaliseOutput(final);
      } catch (error) {
        if (error instanceof OutputTooLargeError) return audit.fail({ code: 'output_too_large', reason: error.reason, maxValues: MAX_JSON_NODES, maxChars: MAX_JSON_CHARS }, proof);
        return audit.fail({ code: 'invalid_output', issues: [{ path: '$', message: describeThrown(error, 'the output').message }] }, proof);
      }
      // The JSON copy is validated, not the tool's value: its getters and toJSON ran once, in the bounded walk.
      const { returns } = tool.declaration;
      const outputIssues = returns ? executor.validator.validate(returns, JSON.parse(normalised.normalised)) : [];
      if (outputIssues.length > 0) return audit.fail({ code: 'invalid_output', issues: outputIssues }, proof);
      const truncation = truncateOutput(normalised.text, executor.options.maxOutputBytes);
      if (truncation.truncated) executor.fullOutputs.set(call.id, normalised.text);
      executor.doomLoop?.record(context.sessionId ?? 'default', call.name, argsHash, normalised.hash);
      return audit.complete(final, normalised, truncation, proof);
    }, audit);
  }, audit);
}
