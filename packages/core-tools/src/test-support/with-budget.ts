import { runWithToolContext } from '@toolwright/tool';

/** Runs `fn` as a tool call whose executor grants `maxChars` of model-facing text. */
export function withBudget<T>(maxChars: number, fn: () => T): T {
  return runWithToolContext({ callId: 'test', toolName: 'test', signal: new AbortController().signal, progress: () => {}, outputBudget: { maxChars } }, fn);
}
