// Writes a deterministic project of N varied tools (10 per file, all three authoring forms) for the
// build-time benchmark: node tools/bench/generate-project.mjs <dir> <N> [simple|realistic] [shared share]
// `realistic` (the default) is closer to real code: shared interfaces used by many tools and imported
// across files, recursive types and recursive unions, discriminated unions, tuples, enums, Records,
// constraint tags on interface properties, Date and nullable fields. `simple` is the original corpus.
// `shared` (realistic only, 0..1, default 1): the share of tools whose signatures use those shared types; the others
// take a few primitive parameters of their own, so one corpus spans plain code to code made of shared models.
import fs from 'node:fs';
import path from 'node:path';

const SHAPES = [
  (i) => ({ params: `path: string, limit: Integer = ${(i % 50) + 1}`, args: `path: string; limit?: number` }),
  (_i) => ({ params: `mode: 'fast' | 'safe' | 'thorough', tags: string[]`, args: `mode: 'fast' | 'safe' | 'thorough'; tags: string[]` }),
  (i) => ({ params: `options: Options${i % 5}`, args: `options: Options${i % 5}` }),
  (_i) => ({ params: `since: Date, until?: Date`, args: `since: string; until?: string` }),
  (_i) => ({ params: `counts: Record<string, number>, threshold = 0.5`, args: `counts: Record<string, number>; threshold?: number` }),
  (i) => ({ params: `tree: Node${i % 3}`, args: `tree: Node${i % 3}` }),
  (_i) => ({ params: `range: [start: number, end?: number], id: string | null`, args: `range: [number, number?]; id: string | null` }),
];

export function generateProject(dir, count, { plugins = true, corpus = 'realistic', shared = 1 } = {}) {
  if (!(shared >= 0 && shared <= 1)) throw new Error(`shared must be a share between 0 and 1, not ${shared}`);
  if (corpus === 'realistic') return generateRealisticProject(dir, count, { plugins, shared });
  if (corpus !== 'simple') throw new Error(`unknown corpus '${corpus}' (realistic or simple)`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  const types = [];
  for (let k = 0; k < 5; k++) {
    types.push(
      `/** Options variant ${k}. */\nexport interface Options${k} {\n  /** Depth to search. @minimum 0 @maximum 10 */\n  depth?: number;\n  follow: boolean;\n  include: string[];\n  nested: { name: string; weight: number; kind: 'a' | 'b' | 'c${k}' };\n}\n`,
    );
  }
  for (let k = 0; k < 3; k++) types.push(`/** Tree variant ${k}. */\nexport interface Node${k} { name: string; size: number; children: Node${k}[] }\n`);
  fs.writeFileSync(path.join(dir, 'src', 'types.ts'), types.join('\n'));
  const files = Math.ceil(count / 10);
  const argTypes = [];
  for (let f = 0; f < files; f++) {
    const lines = [
      "import { tool, type Integer } from '@toolwright/tool';",
      "import type { Options0, Options1, Options2, Options3, Options4, Node0, Node1, Node2 } from './types.js';",
      '',
    ];
    const classMethods = [];
    for (let t = 0; t < 10 && f * 10 + t < count; t++) {
      const i = f * 10 + t;
      const shape = SHAPES[i % SHAPES.length](i);
      argTypes.push(`export interface Tool${i}Args { ${shape.args} }`);
      const form = i % 10;
      if (form < 6) {
        lines.push(
          `/**\n * Tool number ${i}: does step ${i} of the job.\n * @tier read-only\n */\nexport const tool${i} = tool(async function tool${i}(${shape.params}): Promise<{ ok: boolean; count: number }> {\n  return { ok: true, count: ${i} };\n});\n`,
        );
      } else if (form < 8) {
        classMethods.push(
          `  /** Method tool ${i}. */\n  @tool({ tier: 'side-effecting', timeout: '5s' })\n  async method${i}(${shape.params}): Promise<string[]> {\n    return [this.prefix, '${i}'];\n  }\n`,
        );
      } else {
        lines.push(
          `/**\n * JSDoc tool ${i}.\n * @tool\n * @determinism pure\n */\nexport async function jsdocTool${i}(${shape.params}): Promise<number> {\n  return ${i};\n}\n`,
        );
      }
    }
    if (classMethods.length > 0)
      lines.push(`/** Toolkit ${f}. */\nexport class Kit${f} {\n  constructor(private readonly prefix: string) {}\n\n${classMethods.join('\n')}}\n`);
    lines.push(
      `/** Ordinary code next to the tools. */\nexport function helper${f}(values: number[]): number {\n  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);\n}\n`,
    );
    fs.writeFileSync(path.join(dir, 'src', `tools${f}.ts`), lines.join('\n'));
  }
  fs.writeFileSync(
    path.join(dir, 'src', 'args.ts'),
    `import type { Options0, Options1, Options2, Options3, Options4, Node0, Node1, Node2 } from './types.js';\n${argTypes.join('\n')}\n`,
  );
  writeConfigs(dir, count, plugins);
}

function writeConfigs(dir, count, plugins) {
  const base = {
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      skipLibCheck: true,
      types: [],
      rootDir: 'src',
      outDir: 'dist',
    },
    include: ['src'],
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.plain.json'), JSON.stringify(base, null, 2));
  const withPlugins = structuredClone(base);
  withPlugins.compilerOptions.plugins = [{ transform: '@toolwright/transformer' }, { transform: '@toolwright/transformer/program', transformProgram: true }];
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(plugins ? withPlugins : base, null, 2));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `bench-${count}`, private: true }, null, 2));
}

const COMMON_TYPES = `import type { Integer } from '@toolwright/tool';

export enum Priority { Low = 'low', Medium = 'medium', High = 'high' }
export enum Status { Open = 1, Closed = 2, Archived = 3 }

/** A page of results. */
export interface Page {
  /** Page number. @minimum 1 */
  page: Integer;
  /** Results per page. @minimum 1 @maximum 100 */
  perPage?: Integer;
  cursor?: string | null;
}

/** A postal address. */
export interface Address {
  street: string;
  city: string;
  /** @pattern ^[0-9]{5}$ */
  zip: string;
  country?: string;
}

/** A person. */
export interface Person {
  id: string;
  /** @format email */
  email: string;
  /** @minLength 1 @maxLength 200 */
  name: string;
  address?: Address | null;
  born?: Date;
  tags: string[];
}

/** Any JSON value. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A tree of named nodes. */
export interface TreeNode { name: string; children?: TreeNode[]; meta?: Record<string, string> }

/** A filter: a comparison, or a combination of filters. */
export type Filter =
  | { field: string; op: 'eq' | 'ne' | 'lt' | 'gt'; value: string | number }
  | { and: Filter[] }
  | { or: Filter[] };

export type Shape =
  | { kind: 'circle'; radius: number }
  | { kind: 'rect'; width: number; height: number }
  | { kind: 'poly'; points: [x: number, y: number][] };
`;

const domainTypes = (k) => `import type { Integer } from '@toolwright/tool';
import type { Address, Filter, Page, Person, Priority, Status } from './common.js';

/** An order line (domain ${k}). */
export interface LineItem${k} {
  sku: string;
  /** @minimum 1 */
  quantity: Integer;
  /** @minimum 0 */
  price: number;
  attributes?: Record<string, string>;
}

/** An order (domain ${k}). */
export interface Order${k} {
  id: string;
  customer: Person;
  items: LineItem${k}[];
  status: Status;
  priority?: Priority;
  placedAt: Date;
  notes?: string | null;
  shipping: Address;
}

/** A query over orders (domain ${k}). */
export interface Query${k} {
  filter?: Filter;
  sort?: [field: string, direction: 'asc' | 'desc'];
  page: Page;
  include?: ('customer' | 'items' | 'shipping')[];
}

export type Event${k} =
  | { type: 'created'; order: Order${k} }
  | { type: 'cancelled'; orderId: string; reason?: string }
  | { type: 'shipped'; orderId: string; at: Date; carrier: 'ups' | 'dhl' | 'fedex' };
`;

/** Parameters and result of each realistic shape, and the argument object ts-json-schema-generator reads. */
const REALISTIC_SHAPES = [
  (k) => ({ params: `query: Query${k}`, result: `Order${k}[]`, value: '[]', args: `query: Query${k}` }),
  (k) => ({
    params: `order: Order${k}, dryRun = false`,
    result: '{ id: string; status: Status }',
    value: '{ id: order.id, status: order.status }',
    args: `order: Order${k}; dryRun?: boolean`,
  }),
  (k) => ({ params: `event: Event${k}`, result: 'void', value: 'undefined', args: `event: Event${k}` }),
  () => ({ params: 'person: Person, tags?: string[]', result: 'Person', value: 'person', args: 'person: Person; tags?: string[]' }),
  () => ({ params: 'shape: Shape, scale: number | null', result: 'Shape', value: 'shape', args: 'shape: Shape; scale: number | null' }),
  () => ({ params: 'document: Json, path: string[]', result: 'Json', value: 'document', args: 'document: Json; path: string[]' }),
  () => ({ params: 'tree: TreeNode, depth: Integer = 3', result: 'TreeNode', value: 'tree', args: 'tree: TreeNode; depth?: number' }),
  (k) => ({
    params: 'filter: Filter, page: Page',
    result: `{ total: Integer; items: Order${k}[] }`,
    value: '{ total: 0 as Integer, items: [] }',
    args: 'filter: Filter; page: Page',
  }),
  () => ({
    params: 'ids: string[], priority: Priority, until?: Date',
    result: 'Record<string, Status>',
    value: '{}',
    args: 'ids: string[]; priority: Priority; until?: Date',
  }),
  () => ({
    params: "range: [from: Date, to: Date], counts: Record<string, Integer>, mode: 'sum' | 'avg' | 'max'",
    result: 'number',
    value: '0',
    args: "range: [Date, Date]; counts: Record<string, number>; mode: 'sum' | 'avg' | 'max'",
  }),
];

/** A tool of its own: primitive parameters and result, no shared type (the `shared` knob's other side). */
const LOCAL_SHAPES = [
  () => ({
    params: 'path: string, limit: Integer = 20',
    result: '{ ok: boolean; count: number }',
    value: '{ ok: true, count: 0 }',
    args: 'path: string; limit?: number',
  }),
  () => ({ params: "mode: 'fast' | 'safe', tags: string[]", result: 'string[]', value: 'tags', args: "mode: 'fast' | 'safe'; tags: string[]" }),
  () => ({ params: 'id: string, dryRun = false', result: 'boolean', value: 'dryRun', args: 'id: string; dryRun?: boolean' }),
];

function generateRealisticProject(dir, count, { plugins, shared }) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'src', 'types'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src', 'types', 'common.ts'), COMMON_TYPES);
  const files = Math.ceil(count / 10);
  const domains = Math.max(1, Math.ceil(count / 50)); // each domain's interfaces are shared by ~50 tools in 5 files
  for (let k = 0; k < domains; k++) fs.writeFileSync(path.join(dir, 'src', 'types', `domain${k}.ts`), domainTypes(k));
  const common = 'Filter, Json, Page, Person, Priority, Shape, Status, TreeNode';
  const argLines = [`import type { ${common} } from './types/common.js';`];
  for (let f = 0; f < files; f++) {
    const k = f % domains;
    const domain = `Event${k}, Order${k}, Query${k}`;
    argLines.push(`import type { ${domain} } from './types/domain${k}.js';`);
    const lines = [
      "import { tool, type Integer } from '@toolwright/tool';",
      `import type { ${common} } from './types/common.js';`,
      `import type { ${domain} } from './types/domain${k}.js';`,
      '',
    ];
    const classMethods = [];
    for (let t = 0; t < 10 && f * 10 + t < count; t++) {
      const i = f * 10 + t;
      // Spread evenly: tool i uses the shared types when the running share first reaches the next whole tool.
      const usesShared = Math.floor((i + 1) * shared) > Math.floor(i * shared);
      const shape = usesShared ? REALISTIC_SHAPES[i % REALISTIC_SHAPES.length](k) : LOCAL_SHAPES[i % LOCAL_SHAPES.length]();
      argLines.push(`export interface Tool${i}Args { ${shape.args} }`);
      const body = `  return ${shape.value} as ${shape.result};`;
      const form = Math.floor(i / REALISTIC_SHAPES.length + i) % 10; // every form meets every shape
      if (form < 6) {
        lines.push(
          `/**\n * Tool number ${i}: does step ${i} of the job.\n * @tier read-only\n */\nexport const tool${i} = tool(async function tool${i}(${shape.params}): Promise<${shape.result}> {\n${body}\n});\n`,
        );
      } else if (form < 8) {
        classMethods.push(
          `  /** Method tool ${i}. */\n  @tool({ tier: 'side-effecting', timeout: '5s' })\n  async method${i}(${shape.params}): Promise<${shape.result}> {\n    void this.prefix;\n  ${body}\n  }\n`,
        );
      } else {
        lines.push(
          `/**\n * JSDoc tool ${i}.\n * @tool\n * @determinism pure\n */\nexport async function jsdocTool${i}(${shape.params}): Promise<${shape.result}> {\n${body}\n}\n`,
        );
      }
    }
    if (classMethods.length > 0)
      lines.push(`/** Toolkit ${f}. */\nexport class Kit${f} {\n  constructor(private readonly prefix: string) {}\n\n${classMethods.join('\n')}}\n`);
    lines.push(
      `/** Ordinary code next to the tools. */\nexport function helper${f}(values: number[]): number {\n  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);\n}\n`,
    );
    fs.writeFileSync(path.join(dir, 'src', `tools${f}.ts`), lines.join('\n'));
  }
  fs.writeFileSync(path.join(dir, 'src', 'args.ts'), `${[...new Set(argLines)].join('\n')}\n`);
  writeConfigs(dir, count, plugins);
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  generateProject(path.resolve(process.argv[2]), Number(process.argv[3] ?? 100), {
    corpus: process.argv[4] ?? 'realistic',
    shared: Number(process.argv[5] ?? 1),
  });
}
