import type { ModelMessage } from 'ai';

/**
 * Whether the messages the SDK ran a call with hold the user's approval of it: a `tool-approval-response` with
 * `approved: true` answering the latest `tool-approval-request` for this tool call id (the SDK hands an approved
 * call's `execute` the messages that carry both). Responses to other requests approve nothing — requests for other
 * calls, and earlier requests for this id (a provider that reuses call ids across turns); of several answers to the
 * request, the first counts, as the SDK does.
 */
export function approvedInMessages(messages: readonly ModelMessage[] | undefined, toolCallId: string): boolean {
  if (!messages) return false;
  let latest: string | undefined;
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) latest = part.approvalId;
  }
  if (latest === undefined) return false;
  // The first answer to the request counts: a later one cannot turn a no into a yes.
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-approval-response' && part.approvalId === latest) return part.approved === true;
  }
  return false;
}
