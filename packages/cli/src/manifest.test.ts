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

  // A first emit renders the whole list at once (one native pass) and cuts it into elements for the next render.
  it('writes the same when rendered whole, and after an edit, from the elements cut out of it', () => {
    const list = Array.from({ length: 100 }, (_, index) =>
      declaration(`tool_${String(index).padStart(3, '0')}`, index % 7 === 0 ? { returns: { type: 'object', properties: { x: {} } } } : {}),
    );
    const expected = (items: ToolDeclaration[]) =>
      `${JSON.stringify(
        [...items].sort((a, b) => (a.name < b.name ? -1 : 1)),
        null,
        2,
      )}\n`;
    expect(renderManifest(list)).toBe(expected(list));
    const edited = list.map((item, index) => (index === 40 ? declaration(item.name, { description: 'changed' }) : item));
    expect(renderManifest(edited)).toBe(expected(edited));
    // An edit whose declaration comes out the same: the very string of the last render.
    const same = edited.map((item, index) => (index === 3 ? (JSON.parse(JSON.stringify(item)) as ToolDeclaration) : item));
    const before = renderManifest(edited);
    expect(renderManifest(same)).toBe(before);
  });
});
