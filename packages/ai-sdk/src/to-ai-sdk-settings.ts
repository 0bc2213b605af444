import type { ModelMessage, ToolApprovalStatus, ToolSet } from 'ai';
import type { ToolExecutor } from '@toolwright/executor';
import { approvalStatusOf, CallJudgements } from './call-judgements.js';
import { asArgs, buildToolSet, type AISdkToolsOptions } from './to-ai-sdk-tools.js';

/**
 * The executor's gate as the `toolApproval` of `generateText`, `streamText` and `ToolLoopAgent` (a
 * `GenericToolApprovalFunction`): `user-approval` for a call the gate says a person must approve (its reason on the
 * request), `not-applicable` for the rest — the executor runs or refuses those in `execute`. Calls of tools this tool
 * set does not hold are `undefined` (not-applicable): combine it with your own approval for those.
 */
export type AISdkToolApproval = (options: {
  toolCall: { toolCallId: string; toolName: string; input: unknown };
  messages?: ModelMessage[];
}) => ToolApprovalStatus;

/** What `toAISdkSettings` gives: spread it into `generateText`, `streamText` or `new ToolLoopAgent(...)`. */
export interface AISdkSettings {
  tools: ToolSet;
  toolApproval: AISdkToolApproval;
}

/**
 * Your Toolwright tools for the Vercel AI SDK with approvals at the level `ai` 7 takes them: `tools` (each call through
 * the executor, as `toAISdkTools` gives them, without the deprecated `needsApproval`) and `toolApproval` (the
 * executor's gate). The gate judges each call once: the approval question judges it (`ToolExecutor.judgeCall`) and
 * the call's run takes that judgement instead of judging again. A call the gate asks about runs only when the SDK's
 * messages carry the user's yes to that question; a call that reaches `execute` any other way (no `toolApproval`
 * passed, your own approval in its place) is judged by the executor in full — the `approve` handler, or refused.
 * @example
 *   const result = await generateText({ model, ...toAISdkSettings(executor), stopWhen: stepCountIs(8), prompt });
 */
export function toAISdkSettings(executor: ToolExecutor, options: AISdkToolsOptions = {}): AISdkSettings {
  const judgements = new CallJudgements(executor, options.context);
  const tools = buildToolSet(executor, options, judgements, { needsApproval: false });
  const toolApproval: AISdkToolApproval = ({ toolCall }) => {
    if (!Object.hasOwn(tools, toolCall.toolName)) return undefined;
    return approvalStatusOf(judgements.judge(toolCall.toolCallId, toolCall.toolName, asArgs(toolCall.input)));
  };
  return { tools, toolApproval };
}
