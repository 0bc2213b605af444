import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '@toolwright/schema';
import { renderManifest } from './manifest.js';

const declaration = (name: string, extra: Record<string, unknown> = {}) =>
  ({
    name,
    description: `Does ${name}.\nOn two lines, "quoted", ünïcode \\u2028.`,
    parameters: { type: 'object', properties: { a: { type: 'array', items: {} }, b: { enum: [] } }, required: [], additionalProperties: false },
    parameterOrder: ['a', 'b'],
    metadata: { tier: 'read-only', sideEffects: [], capabilities: [] },
    ...extra,
  }) as unknown as ToolDeclaration;

describe(renderManifest, () => {
  it('writes what JSON.stringify of the sorted list writes, element by element', () => {
    const list = [declaration('zeta'), declaration('alpha', { returns: { type: 'object', properties: {} } }), declaration('mid')];
    const sorted = [...list].sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(renderManifest(list)).toBe(`${JSON.stringify(sorted, null, 2)}\n`);
    // Again, from what was kept for each declaration.
    expect(renderManifest(list)).toBe(`${JSON.stringify(sorted, null, 2)}\n`);
    expect(renderManifest([])).toBe(`${JSON.stringify([], null, 2)}\n`);
  });
});
