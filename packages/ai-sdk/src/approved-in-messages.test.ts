import { describe, expect, it } from 'vitest';
import type { ModelMessage } from 'ai';
import { approvedInMessages } from './approved-in-messages.js';

const asked = (toolCallId: string, approvalId: string): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-approval-request', approvalId, toolCallId }],
});
const answered = (...answers: [string, boolean][]): ModelMessage => ({
  role: 'tool',
  content: answers.map(([approvalId, approved]) => ({ type: 'tool-approval-response' as const, approvalId, approved })),
});

describe(approvedInMessages, () => {
  it.for<[string, ModelMessage[] | undefined, boolean]>([
    ['a yes to the request for the call', [asked('c1', 'a1'), answered(['a1', true])], true],
    ['a no', [asked('c1', 'a1'), answered(['a1', false])], false],
    ['a yes to the request for another call', [asked('c1', 'a1'), asked('c2', 'a2'), answered(['a2', true])], false],
    ['a yes to no request at all', [answered(['a1', true])], false],
    ['a yes after a no (the first answer counts)', [asked('c1', 'a1'), answered(['a1', false], ['a1', true])], false],
    ['no messages', undefined, false],
    // A provider that reuses call ids: only the answer to the latest request for the id counts.
    ['an old yes to an earlier request for the same id, the latest unanswered', [asked('c1', 'a1'), answered(['a1', true]), asked('c1', 'a2')], false],
    ['an old no, then a yes to the latest request', [asked('c1', 'a1'), answered(['a1', false]), asked('c1', 'a2'), answered(['a2', true])], true],
  ])('answers %s', ([, messages, approved]) => {
    expect(approvedInMessages(messages, 'c1')).toBe(approved);
  });
});
