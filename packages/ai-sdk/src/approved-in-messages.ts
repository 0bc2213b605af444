import type { ModelMessage } from 'ai';

/**
 * Whether the messages the SDK ran a call with hold the user's approval of it: a `tool-approval-response` with
 * `approved: true` answering a `tool-approval-request` for this tool call id (the SDK hands an approved call's
 * `execute` the messages that carry both). Responses to requests for other calls approve nothing;
 * of several answers to this call, the first counts.
 */
export function approvedInMessages(messages: readonly ModelMessage[] | undefined, toolCallId: string): boolean {
  if (!messages) return false;
  const requests = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) requests.add(part.approvalId);
  }
  if (requests.size === 0) return false;
  // As the SDK does, the first answer to the call counts: a later one cannot turn a no into a yes.
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-approval-response' && requests.has(part.approvalId)) return part.approved === true;
  }
  return false;
}
