import type { ToolCall } from './tool-call.js';

/**
 * A call object a host built badly (not an object, a non-string id or name, a proxy): its id and name as
 * strings, read without trusting them; the arguments as they are (reading them refuses anything but JSON
 * text or plain data).
 */
export function sanitiseCall(call: unknown): ToolCall {
  const field = (key: string): unknown => {
    try {
      return typeof call === 'object' && call !== null ? (call as Record<string, unknown>)[key] : undefined;
    } catch {
      return undefined;
    }
  };
  const text = (value: unknown) =>
    typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : '';
  return { id: text(field('id')), name: text(field('name')), arguments: field('arguments') as ToolCall['arguments'] };
}
