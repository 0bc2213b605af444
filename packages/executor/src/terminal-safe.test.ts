import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolRegistry } from '@toolwright/registry';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { escapeTerminalControls, escapeTerminalControlsDeep } from './terminal-safe.js';

/** Whether a text still holds a character a terminal or text view would act on (tab and newline are fine). */
const hasRawControls = (text: string): boolean => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(text);

const code = (c: number) => String.fromCharCode(c);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const UNSAFE = [...range(0x00, 0x08), ...range(0x0b, 0x1f), ...range(0x7f, 0x9f), 0x061c, 0x200e, 0x200f, ...range(0x202a, 0x202e), ...range(0x2066, 0x2069)];

describe(escapeTerminalControls, () => {
  it.for(UNSAFE.map((c) => c.toString(16).padStart(4, '0')))('writes U+%s as a visible escape', (hex) => {
    const escaped = escapeTerminalControls(`a${code(parseInt(hex, 16))}b`);
    expect(escaped).toBe(`a\\u${hex}b`);
    expect(hasRawControls(escaped)).toBe(false);
  });

  it('keeps tab, newline, printable text, emoji and other scripts as they are', () => {
    const text = 'line 1\tcol\nline 2 — ünïcödé 日本語 עברית 🎉 \\u001b stays literal';
    expect(escapeTerminalControls(text)).toBe(text);
  });

  it.for([
    ['\u001b[2J\u001b[H', '\\u001b[2J\\u001b[H'],
    ['\u001b]52;c;Y2xpcGJvYXJk\u0007', '\\u001b]52;c;Y2xpcGJvYXJk\\u0007'],
    ['\u009b31m', '\\u009b31m'],
    ['file\u202Etxt.exe', 'file\\u202etxt.exe'],
    ['progress 10%\r\u0008\u0008', 'progress 10%\\u000d\\u0008\\u0008'],
  ] as const)('escapes the sequence %j', ([raw, escaped]) => {
    expect(escapeTerminalControls(raw)).toBe(escaped);
  });
});

describe(escapeTerminalControlsDeep, () => {
  it('escapes every string and key of a JSON value, keeping its shape', () => {
    const value = { ['k\u001b']: ['\u001b[31m', 1, true, null, { inner: '\u009b' }], date: new Date(0), __proto__x: 'ok' };
    expect(escapeTerminalControlsDeep(value)).toEqual({
      'k\\u001b': ['\\u001b[31m', 1, true, null, { inner: '\\u009b' }],
      date: '1970-01-01T00:00:00.000Z',
      __proto__x: 'ok',
    });
  });

  it('keeps a __proto__ key a key', () => {
    const escaped = escapeTerminalControlsDeep(JSON.parse('{"__proto__":{"polluted":"\\u001b"}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(escaped)).toBe(Object.prototype);
    expect(JSON.stringify(escaped)).toBe('{"__proto__":{"polluted":"\\\\u001b"}}');
  });
});

describe('what the model reads', () => {
  const controls = fc.constantFrom('\u001b[2J', '\u001b]52;c;ZXZpbA==\u0007', '\u0007', '\b', '\r', '\u009b31m', '\u202e', '\u2066', '\u007f');
  const text = fc.array(fc.oneof(fc.string({ maxLength: 8 }), controls), { maxLength: 8 }).map((parts) => parts.join(''));

  it("property: a tool's output, returned as text or inside an object, and its error message reach the model with every control escaped", async () => {
    await fc.assert(
      fc.asyncProperty(text, async (value) => {
        const registry = new ToolRegistry();
        registry.register(
          defineTool(
            async function asText() {
              return value;
            },
            declaration('as_text', {}),
          ),
        );
        registry.register(
          defineTool(
            async function asObject() {
              return { value, [value]: 1 };
            },
            declaration('as_object', {}),
          ),
        );
        registry.register(
          defineTool(
            async function failing() {
              throw new Error(value);
            },
            declaration('failing', {}),
          ),
        );
        const executor = new ToolExecutor({ registry, audit: new MemoryAuditSink() });
        for (const name of ['as_text', 'as_object', 'failing']) {
          const result = await executor.executeToolCall({ id: name, name, arguments: '{}' });
          expect(hasRawControls(result.content), `${name}: ${JSON.stringify(result.content)}`).toBe(false);
        }
      }),
      { numRuns: 100 },
    );
  });
});
