import type { ToolCall } from './tool-call.js';

/** One streamed fragment of a tool call, as providers send them (OpenAI by index, Anthropic by block). */
export interface ToolCallDelta {
  /** Position of the call in the turn (OpenAI `index`, Anthropic content block index). */
  index: number;
  id?: string;
  name?: string;
  /** The next piece of the argument JSON text. */
  arguments?: string;
}

/**
 * Rebuilds each call's id, name and argument string from provider deltas (seed 000:
 * ToolCallAccumulator). Fragments may arrive interleaved across calls; `finish()` returns the calls
 * in index order. A call whose argument text never arrived gets `{}`, so the executor validates it
 * (and answers with the missing fields) instead of failing the turn.
 */
export class ToolCallAccumulator {
  private readonly calls = new Map<number, { id?: string; name?: string; chunks: string[] }>();

  add(delta: ToolCallDelta): void {
    const entry = this.calls.get(delta.index) ?? { chunks: [] };
    if (delta.id) entry.id = delta.id;
    if (delta.name) entry.name = (entry.name ?? '') === '' ? delta.name : entry.name;
    if (delta.arguments) entry.chunks.push(delta.arguments);
    this.calls.set(delta.index, entry);
  }

  /** The argument text received so far for a call (for streaming UIs). */
  partialArguments(index: number): string {
    return this.calls.get(index)?.chunks.join('') ?? '';
  }

  finish(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, entry]) => ({
        id: entry.id ?? `call_${index}`,
        name: entry.name ?? '',
        arguments: entry.chunks.length > 0 ? entry.chunks.join('') : '{}',
      }));
  }
}
