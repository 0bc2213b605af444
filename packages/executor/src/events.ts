import type { ToolProgress } from '@toolwright/tool';
import type { ToolCallResult } from './tool-call.js';

/** Lifecycle of one call: pending (queued in a batch) → running → completed | error. */
export type ToolCallState = 'pending' | 'running' | 'completed' | 'error';

export type ExecutorEvent =
  | { type: 'tool_calls_batch_start'; batchId: string; callIds: string[] }
  | { type: 'tool_call_start'; callId: string; tool: string; state: 'running' }
  | { type: 'tool_call_update'; callId: string; tool: string; progress: ToolProgress }
  | { type: 'tool_call_heartbeat'; callId: string; tool: string; elapsedMs: number }
  | { type: 'tool_call_end'; callId: string; tool: string; state: 'completed' | 'error'; result: ToolCallResult }
  | { type: 'tool_calls_batch_end'; batchId: string; results: ToolCallResult[] };

export type ExecutorEventListener = (event: ExecutorEvent) => void;

/** Delivers events to listeners; a throwing listener never breaks a call. */
export class EventBus {
  private readonly listeners = new Set<ExecutorEventListener>();

  on(listener: ExecutorEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get active(): boolean {
    return this.listeners.size > 0;
  }

  emit(event: ExecutorEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A UI listener's bug must not fail the tool call it observes.
      }
    }
  }
}
