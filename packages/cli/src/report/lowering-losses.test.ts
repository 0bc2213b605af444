import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '@toolwright/schema';
import { lowerDeclaration, type Dialect } from './dialects.js';
import { loweringLosses, type Loss } from './lowering-losses.js';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'transformer', 'fixtures');
/** A real declaration: the transformer's expected output for a fixture. */
const fixture = (name: string): ToolDeclaration => (JSON.parse(fs.readFileSync(path.join(FIXTURES, name, 'expected.json'), 'utf8')) as ToolDeclaration[])[0]!;
const lossesOf = (declaration: ToolDeclaration, dialect: Dialect): Omit<Loss, 'described' | 'revalidated'>[] =>
  loweringLosses(declaration.parameters, lowerDeclaration(declaration, dialect).parameters).map(({ path, kind, keyword }) => ({
    path,
    kind,
    ...(keyword !== undefined ? { keyword } : {}),
  }));

describe(loweringLosses, () => {
  it.for(['openai', 'anthropic', 'mcp'] as const)('finds nothing lost by %s, which sends the schema as it is', (dialect) => {
    for (const name of [
      'special/recursive-type',
      'jsdoc-constraints/string-constraints',
      'objects/index-signature',
      'jsdoc-constraints/default-example-deprecated',
    ])
      expect(lossesOf(fixture(name), dialect)).toEqual([]);
  });

  it('openai-strict: string lengths dropped and told in the description, still re-validated', () => {
    const declaration = fixture('jsdoc-constraints/string-constraints');
    const losses = loweringLosses(declaration.parameters, lowerDeclaration(declaration, 'openai-strict').parameters);
    expect(losses).toEqual([
      { path: '$.account.login', kind: 'dropped', keyword: 'minLength', described: true, revalidated: true },
      { path: '$.account.login', kind: 'dropped', keyword: 'maxLength', described: true, revalidated: true },
    ]);
  });

  it('openai-strict: optional → nullable, and defaults, examples and deprecated lost as annotations', () => {
    const losses = loweringLosses(
      fixture('jsdoc-constraints/default-example-deprecated').parameters,
      lowerDeclaration(fixture('jsdoc-constraints/default-example-deprecated'), 'openai-strict').parameters,
    );
    expect(losses).toContainEqual({ path: '$.options.width', kind: 'optional-nullable', described: false, revalidated: true });
    expect(losses).toContainEqual({ path: '$.options.width', kind: 'dropped', keyword: 'default', described: true, revalidated: false });
    expect(losses).toContainEqual({ path: '$.options.quality', kind: 'dropped', keyword: 'deprecated', described: true, revalidated: false });
  });

  it('openai-strict: a map reshaped as a list of entries, a tuple as a bounded array', () => {
    expect(lossesOf(fixture('objects/index-signature'), 'openai-strict')).toEqual([{ path: '$.counters', kind: 'reshaped', keyword: 'object as array' }]);
    expect(lossesOf(fixture('arrays-tuples/tuple'), 'openai-strict')).toEqual([{ path: '$.point', kind: 'dropped', keyword: 'prefixItems' }]);
  });

  it('gemini: $ref inlined, recursion described in text, closed objects and unknown formats lost', () => {
    expect(lossesOf(fixture('special/recursive-type'), 'gemini')).toEqual([
      { path: '$', kind: 'dropped', keyword: 'additionalProperties' },
      { path: '$.tree', kind: 'inlined-ref', keyword: 'TreeNode' },
      { path: '$.tree', kind: 'dropped', keyword: 'additionalProperties' },
      { path: '$.tree.children[]', kind: 'recursion-in-text', keyword: 'TreeNode' },
    ]);
    expect(lossesOf(fixture('jsdoc-constraints/string-constraints'), 'gemini')).toContainEqual({ path: '$.account.email', kind: 'dropped', keyword: 'format' });
  });

  it('gemini: reads its own spelling (string limits, nullable, example) as what it keeps', () => {
    // String lengths travel as strings and the one example as `example`: kept, not lost.
    expect(lossesOf(fixture('jsdoc-constraints/string-constraints'), 'gemini').filter((l) => l.keyword === 'minLength' || l.keyword === 'maxLength')).toEqual(
      [],
    );
    expect(lossesOf(fixture('jsdoc-constraints/default-example-deprecated'), 'gemini').map((l) => l.keyword)).toEqual([
      'additionalProperties',
      'additionalProperties',
      'deprecated',
    ]);
  });

  it('gemini: a number constant typed as its value and told in words, not reshaped', () => {
    expect(lossesOf(fixture('literals-enums/number-literal'), 'gemini')).toEqual([
      { path: '$', kind: 'dropped', keyword: 'additionalProperties' },
      { path: '$.version', kind: 'changed', keyword: 'type' },
      { path: '$.version', kind: 'dropped', keyword: 'const' },
    ]);
  });

  it('reports a keyword an exporter stops carrying, found by comparing the schemas', () => {
    const declaration = fixture('jsdoc-constraints/string-constraints');
    const lowered = structuredClone(declaration.parameters);
    delete (lowered.properties.account!.properties!.email as { format?: string }).format;
    expect(loweringLosses(declaration.parameters, lowered)).toEqual([
      { path: '$.account.email', kind: 'dropped', keyword: 'format', described: false, revalidated: true },
    ]);
  });
});
