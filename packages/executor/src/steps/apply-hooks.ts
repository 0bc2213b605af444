import type { ToolDeclaration } from '@toolwright/schema';
import type { ToolError } from '../tool-error.js';
import type { ToolCall } from '../tool-call.js';
import type { ToolExecutor } from '../tool-executor.js';

/** Before-hooks in order: any may block the call (the model sees the reason) or rewrite its arguments. */
export async function applyBeforeHooks(executor: ToolExecutor, call: ToolCall, declaration: ToolDeclaration, args: Record<string, unknown>):
  Promise<{ ok: true; args: Record<string, unknown> } | { ok: false; error: ToolError }> {
  let current = args;
  for (const hook of executor.options.hooks ?? []) {
    if (!hook.beforeCall) continue;
    let answer;
    try {
      answer = await hook.beforeCall({ callId: call.id, tool: call.name, args: current, declaration });
    } catch (error) {
      return { ok: false, error: { code: 'hook_blocked', hook: hook.name, reason: `hook '${hook.name}' failed: ${(error as Error).message}` } };
    }
    if (!answer) continue;
    if ('block' in answer) return { ok: false, error: { code: 'hook_blocked', hook: hook.name, reason: answer.block } };
    // Rewritten arguments are validated again: a hook cannot smuggle in what the schema forbids.
    const issues = executor.validator.validate(declaration.parameters, answer.args);
    if (issues.length > 0) return { ok: false, error: { code: 'hook_blocked', hook: hook.name, reason: `hook '${hook.name}' produced invalid arguments: ${issues.map((i) => i.message).join('; ')}` } };
    current = answer.args;
  }
  return { ok: true, args: current };
}

/** After-hooks in order: each may replace the output. A failing after-hook leaves the output unchanged. */
export async function applyAfterHooks(executor: ToolExecutor, call: ToolCall, declaration: ToolDeclaration, args: Record<string, unknown>, output: unknown): Promise<unknown> {
  let current = output;
  for (const hook of executor.options.hooks ?? []) {
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
