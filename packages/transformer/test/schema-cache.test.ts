import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { JsonSchema } from '@toolwright/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeSignature, type AnalysisServices, type ToolCandidate } from '../src/analysis/analyze-signature.js';
import { findTools } from '../src/analysis/find-tools.js';
import { JsDocReader, type DocInfo } from '../src/jsdoc-reader.js';
import { Reporter } from '../src/reporter.js';
import { ToolCalleeResolver } from '../src/analysis/tool-callee.js';
import { SchemaCache } from '../src/type-mappers/schema-cache.js';
import { FIXTURE_OPTIONS } from './compile-fixture.js';

const dir = fs.mkdtempSync(path.join(__dirname, '.tmp-schema-cache-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const files: Record<string, string> = {
  'types.ts': `
/** A filter: a comparison, or a combination of filters. */
export type Filter = { field: string; value: string | number } | { and: Filter[] } | { or: Filter[] };
/** Any JSON value; its tags belong to its definition. @default null */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A tagged tree. @minProperties 1 */
export interface Tagged { label?: string; kids?: Tagged[] }
export interface TreeNode { name: string; children?: TreeNode[] }
export interface Query { filter?: Filter; page: number; tree?: TreeNode }
/** Mutual recursion: the definition made depends on which of the two is met first. */
export interface Team { name: string; lead?: Member }
export interface Member { name: string; team: Team }
export interface Wrapper { team: Team; member: Member }
export interface Node { id: string; next?: Node }
export interface Pair { left: Node; right: import('./other.js').Node }
export interface Both { a: Query; b: Filter; c: Json; d?: Tagged }
export type BuiltInRole = 'admin' | 'user';
/** A custom role. @pattern ^x- */
export type CustomRole = string;
`,
  'other.ts': `
export interface Node { label: string; parent?: Node }
`,
  'tools.ts': `
import { tool } from '@toolwright/tool';
import type { Both, BuiltInRole, CustomRole, Filter, Json, Tagged, Member, Pair, Query, Team, TreeNode, Wrapper, Node } from './types.js';
import type { Node as OtherNode } from './other.js';

/** T1. */ export const t1 = tool(async function t1(query: Query): Promise<Query> { return query; });
/** T2. */ export const t2 = tool(async function t2(filter: Filter, json: Json, tagged?: Tagged): Promise<Filter> { return filter; });
/** T3. */ export const t3 = tool(async function t3(member: Member): Promise<Team> { return member.team; });
/** T4. */ export const t4 = tool(async function t4(team: Team, member: Member): Promise<Wrapper | null> { return null; });
/** T5. */ export const t5 = tool(async function t5(other: OtherNode, node: Node): Promise<Pair> { return { left: node, right: other }; });
/** T6. */ export const t6 = tool(async function t6(pair: Pair, node: Node): Promise<OtherNode> { return pair.right; });
/** T7. */ export const t7 = tool(async function t7(both: Both, tree: TreeNode, again?: Query): Promise<Json[]> { return []; });
/** T8. */ export const t8 = tool(async function t8(trees: TreeNode[], wrapper: Wrapper): Promise<Member[]> { return []; });
/** T9. */ export const t9 = tool(async function t9(member: Member, team: Team, filters: Filter[]): Promise<[Team, Member]> { return [member.team, member]; });
/** T10. */ export const t10 = tool(async function t10(name: string, role: BuiltInRole | CustomRole): Promise<string> { return name; });
/** T11. */ export const t11 = tool(async function t11(role: BuiltInRole | CustomRole, label?: string): Promise<BuiltInRole | CustomRole> { return role; });
`,
};

function setUp() {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const program = ts.createProgram([path.join(dir, 'tools.ts')], FIXTURE_OPTIONS);
  const checker = program.getTypeChecker();
  const reporter = new Reporter();
  const docs = new JsDocReader();
  const sourceFile = program.getSourceFile(path.join(dir, 'tools.ts'))!;
  const candidates: ToolCandidate[] = findTools(sourceFile, { checker, docs, reporter, callee: new ToolCalleeResolver(checker, (f) => ts.sys.readFile(f)) });
  /** Declarations by tool, analysed in `order`; without a cache every tool is mapped afresh (the reference). */
  const analyse = (order: readonly ToolCandidate[], cache?: SchemaCache) => {
    const services: AnalysisServices = {
      checker,
      reporter,
      docs,
      rootDir: dir,
      isLibFile: (f) => program.isSourceFileDefaultLibrary(f),
      isProjectFile: (f) => f.fileName.startsWith(dir),
      ...(cache ? { cache } : {}),
    };
    const declarations = Object.fromEntries(order.map((candidate) => [candidate.functionName, analyzeSignature(candidate, services)]));
    expect(reporter.diagnostics.map((d) => d.message)).toEqual([]);
    return declarations;
  };
  return { candidates, analyse };
}

/** A permutation of `items` from a small deterministic generator. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const result = [...items];
  let state = seed;
  for (let i = result.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

describe(SchemaCache, () => {
  it('gives every tool the schema it gets when mapped alone, recursive types and $defs names included, in any order', () => {
    const { candidates, analyse } = setUp();
    const reference = analyse(candidates);
    expect(Object.keys(reference)).toHaveLength(11);
    const orders = [candidates, [...candidates].reverse(), ...[1, 2, 3, 4].map((seed) => shuffled(candidates, seed))];
    for (const [index, order] of orders.entries()) {
      const cache = new SchemaCache();
      for (const pass of [1, 2]) {
        const declarations = analyse(order, cache);
        for (const [name, declaration] of Object.entries(reference)) expect(declarations[name], `${name}, order ${index}, pass ${pass}`).toEqual(declaration);
      }
      // Recursive types are reused too (they used to be mapped again for every tool).
      expect(cache.hits).toBeGreaterThan(20);
    }
    // The cases the test is about are really there: $defs, a collision renamed, mutual recursion.
    expect(Object.keys(reference.t5!.parameters.$defs ?? {})).toEqual(['Node', 'Node_2']);
    expect(reference.t2!.parameters.$defs?.Filter).toBeDefined();
    expect(Object.keys(reference.t4!.parameters.$defs ?? {})).toEqual(['Member', 'Team']);
    // A union the checker collapsed to `string` keeps its members where it is written, though `string` is met alone too.
    expect(reference.t10!.parameters.properties.role!.anyOf).toHaveLength(2);
    expect(reference.t11!.parameters.properties.role).toEqual(reference.t10!.parameters.properties.role);
    expect(reference.t10!.parameters.properties.name).toEqual({ type: 'string' });
  });

  it('applies the docs of a named type to a kept schema once, and again wherever applying them reported something', () => {
    const cache = new SchemaCache();
    const schema = Object.freeze({ type: 'object' }) as JsonSchema;
    const docs: DocInfo = { summary: 'A thing.', tags: [], params: new Map() };
    let applied = 0;
    let reports = 0;
    const tracking = { reports: () => reports };
    const document = () => {
      applied++;
      return { ...schema, description: 'A thing.' };
    };
    const first = cache.withDocs(schema, docs, document, tracking);
    expect(cache.withDocs(schema, docs, document, tracking)).toBe(first);
    expect(first).toEqual({ type: 'object', description: 'A thing.' });
    expect(Object.isFrozen(first)).toBe(true);
    expect(applied).toBe(1);
    const badDocs: DocInfo = { summary: '', tags: [], params: new Map() };
    const reporting = () => {
      applied++;
      reports++;
      return schema;
    };
    cache.withDocs(schema, badDocs, reporting, tracking);
    cache.withDocs(schema, badDocs, reporting, tracking);
    expect(applied).toBe(3);
  });

  it('asks once per type which mapper it goes to', () => {
    const cache = new SchemaCache();
    const type = {} as ts.Type;
    let asked = 0;
    const choose = () => {
      asked++;
      return undefined;
    };
    expect(cache.mapperOf(type, choose)).toBeUndefined();
    expect(cache.mapperOf(type, choose)).toBeUndefined();
    expect(asked).toBe(1);
  });
});
