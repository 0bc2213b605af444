import { runWithToolContext } from '@toolwright/tool';
import { toolContext } from './tool-context.js';

/** Runs `fn` as a tool call whose executor grants `maxChars` of model-facing text. */
export function withBudget<T>(maxChars: number, fn: () => T): T {
  return runWithToolContext(toolContext({ callId: 'test', toolName: 'test', outputBudget: { maxChars } }), fn);
}
