import type { ToolDeclaration } from '@toolwright/schema';
import type { PipelineStep } from '../call-state.js';
import type { ToolHooks } from '../hooks.js';
import { describeIssue } from '../model-message.js';
import type { ToolError } from '../tool-error.js';
import type { ToolCall } from '../tool-call.js';
import { canonicalJson } from '../output/normalize-output.js';
import { describeThrown } from '../output/describe-thrown.js';
import type { SchemaValidator } from '../arguments/schema-validator.js';

/** Step: the before-hooks (see `applyBeforeHooks`); a blocked call is refused with the hook's reason. */
export function beforeHooksStep(hooks: readonly ToolHooks[], validator: SchemaValidator): PipelineStep {
  return {
    stage: 'hooks',
    run: (state) =>
      applyBeforeHooks(hooks, validator, state.call, state.tool.declaration, state.args).then((hooked) => {
        if (!hooked.ok) return state.audit.reject(hooked.error, { tool: state.call.name, args: state.args, tier: state.tool.declaration.metadata.tier });
        state.args = hooked.args;
        return undefined;
      }),
  };
}

/** Step: the after-hooks (see `applyAfterHooks`) on the tool's output. */
export function afterHooksStep(hooks: readonly ToolHooks[]): PipelineStep {
  return {
    stage: 'output',
    run: (state) =>
      applyAfterHooks(hooks, state.call, state.tool.declaration, state.args, state.output).then((output) => {
        state.output = output;
        return undefined;
      }),
  };
}

/** Before-hooks in order: any may block the call (the model sees the reason) or rewrite its arguments. */
export async function applyBeforeHooks(
  hooks: readonly ToolHooks[],
  validator: SchemaValidator,
  call: ToolCall,
  declaration: ToolDeclaration,
  args: Record<string, unknown>,
): Promise<{ ok: true; args: Record<string, unknown> } | { ok: false; error: ToolError }> {
  let current = args;
  for (const hook of hooks) {
    if (!hook.beforeCall) continue;
    let answer;
    try {
      answer = await hook.beforeCall({ callId: call.id, tool: call.name, args: current, declaration });
    } catch (error) {
      return {
        ok: false,
        error: { code: 'hook_blocked', hook: hook.name, reason: `hook '${hook.name}' failed: ${describeThrown(error, 'the hook').message}` },
      };
    }
    if (!answer) continue;
    if (typeof answer !== 'object')
      return { ok: false, error: { code: 'hook_blocked', hook: hook.name, reason: `hook '${hook.name}' answered neither a block nor arguments` } };
    if ('block' in answer)
      return {
        ok: false,
        error: { code: 'hook_blocked', hook: hook.name, reason: typeof answer.block === 'string' ? answer.block : `hook '${hook.name}' blocked the call` },
      };
    const rewritten: unknown = answer.args;
    if (typeof rewritten !== 'object' || rewritten === null || Array.isArray(rewritten)) {
      return { ok: false, error: { code: 'hook_blocked', hook: hook.name, reason: `hook '${hook.name}' produced arguments that are not an object` } };
    }
    // Rewritten arguments are checked again: a hook cannot smuggle in what the schema forbids, nor a
    // value JSON cannot hold (NaN, a bigint, a cycle) that the audit log and the hash could not record.
    const problem = unrepresentable(rewritten);
    const problems = problem ? [problem] : validator.validate(declaration.parameters, rewritten).map((issue) => describeIssue(issue));
    if (problems.length > 0)
      return { ok: false, error: { code: 'hook_blocked', hook: hook.name, reason: `hook '${hook.name}' produced invalid arguments: ${problems.join('; ')}` } };
    current = rewritten as Record<string, unknown>;
  }
  return { ok: true, args: current };
}

/** After-hooks in order: each may replace the output. A failing after-hook leaves the output unchanged. */
export async function applyAfterHooks(
  hooks: readonly ToolHooks[],
  call: ToolCall,
  declaration: ToolDeclaration,
  args: Record<string, unknown>,
  output: unknown,
): Promise<unknown> {
  let current = output;
  for (const hook of hooks) {
    if (!hook.afterCall) continue;
    try {
      const answer = await hook.afterCall({ callId: call.id, tool: call.name, args, declaration }, current);
      if (answer && 'output' in answer) current = answer.output;
    } catch {
      // An observing hook must not turn a finished call into a failure.
    }
  }
  return current;
}

function unrepresentable(args: object): string | undefined {
  try {
    canonicalJson(args, 'the arguments');
    return undefined;
  } catch (error) {
    return describeThrown(error, 'the arguments').message;
  }
}
