import type { ToolCallContext } from '@toolwright/tool';

const nobodyToAsk = () => Promise.reject(new Error('a test calls the tool with nobody to ask: it must not ask'));

/**
 * A tool call's context as a test gives it, without an executor: a signal nothing aborts, progress dropped, and
 * nobody to ask (the core tools never ask). `fields` adds to it or replaces any of it.
 */
export function toolContext(fields: Partial<ToolCallContext> = {}): ToolCallContext {
  return { callId: 'c', toolName: 'test', signal: new AbortController().signal, progress: () => {}, elicit: nobodyToAsk, ask: nobodyToAsk, ...fields };
}
