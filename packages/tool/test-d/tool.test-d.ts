import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd';
import {
  getToolDeclaration,
  tool,
  type Integer,
  type ToolArgs,
  type ToolDeclaration,
  type ToolParameters,
  type ToolResult,
  type ToolSignatureError,
} from '@toolwright/tool';

// The wrapper returns the function's own type, so it can still be called directly.
const readFile = tool(async function readFile(path: string, limit?: number): Promise<string> {
  return `${path}${limit ?? ''}`;
});
expectType<(path: string, limit?: number) => Promise<string>>(readFile);
expectType<Promise<string>>(readFile('a.txt'));

// Defaults keep their inferred types (a constraint with a call signature would make them `any`).
const paginate = tool(async function paginate(page = 1, sort = 'name', desc = false) {
  return { page, sort, desc };
});
expectType<(page?: number, sort?: string, desc?: boolean) => Promise<{ page: number; sort: string; desc: boolean }>>(paginate);

// Arrow functions, named declarations and options.
const add = tool(async (a: number, b: number) => a + b, { tier: 'read-only', timeout: '5s' });
expectType<(a: number, b: number) => Promise<number>>(add);
async function named(id: string): Promise<void> {}
expectType<typeof named>(tool(named, { timeout: 5000, sideEffects: ['fs-read'], group: 'my-group' }));

// Accepted parameter and result types: everything with a JSON form.
interface Options {
  mode: 'fast' | 'safe';
  tags: string[];
  when?: Date;
  nested: { deep: [number, string?] };
  extra: Record<string, number>;
}
enum Color {
  Red = 'red',
}
const accepted = tool(async function accepted(o: Options, c: Color, n: number | null, i: Integer, ro: readonly string[]): Promise<Options[]> {
  return [o];
});
expectAssignable<Function>(accepted);

// Rejected at the type level: the call yields an uncallable ToolSignatureError naming the problem.
const notAsync = tool(function notAsync(a: string) {
  return a;
});
expectType<ToolSignatureError<{ 'Toolwright: a tool must be an async function (it must return a Promise)': never }>>(notAsync);
expectError(notAsync('x'));
expectNotAssignable<Function>(tool(async function callback(cb: () => void) {}));
expectNotAssignable<Function>(tool(async function sym(s: symbol) {}));
expectNotAssignable<Function>(tool(async function big(b: bigint) {}));
expectNotAssignable<Function>(tool(async function map(m: Map<string, string>) {}));
expectNotAssignable<Function>(tool(async function set(s: Set<string>) {}));
expectNotAssignable<Function>(tool(async function promised(p: Promise<string>) {}));
expectNotAssignable<Function>(tool(async function nested(o: { cb: () => void }) {}));
expectNotAssignable<Function>(tool(async function rest(...words: string[]) {}));
expectNotAssignable<Function>(tool(async function withThis(this: Date, x: string) {}));
expectNotAssignable<Function>(
  tool(async function returnsFn(): Promise<() => void> {
    return () => {};
  }),
);
// Not expressible in TypeScript's types (the transformer reports them as compile errors instead):
// destructured parameters and constrained generics.
expectAssignable<Function>(tool(async function destructured({ a }: { a: string }) {}));
// Any JSON value or object is accepted (the transformer warns that the model gets no guidance).
expectAssignable<Function>(
  tool(async function passthrough(body: unknown, raw: any, bag: object, metadata: Record<string, unknown>): Promise<unknown> {
    return body;
  }),
);

// Options are type-checked.
expectError(tool(async function badTier(a: string) {}, { tier: 'dangerous' }));
expectError(tool(async function badKey(a: string) {}, { teir: 'read-only' }));
expectError(tool(async function badEffect(a: string) {}, { sideEffects: ['fs-scan'] }));

// The decorator form: TC39 method decorators on async methods.
class Kit {
  @tool({ tier: 'read-only' })
  async greet(name: string): Promise<string> {
    return name;
  }
}
expectType<(name: string) => Promise<string>>(new Kit().greet);
class BadKit {
  // @ts-expect-error a non-async method cannot be a tool
  @tool()
  greet(name: string): string {
    return name;
  }
}
void BadKit;

// Helpers.
expectType<[path: string, limit?: number]>({} as ToolParameters<typeof readFile>);
expectType<string>({} as ToolResult<typeof readFile>);
expectType<ToolDeclaration | undefined>(getToolDeclaration(readFile));
const count: Integer = 3;
expectAssignable<number>(count);

// ToolArgs reads the map `toolwright emit --module` generates; here one entry is written by hand.
declare const lookup: (path: string, limit?: Integer) => Promise<string>;
declare module '@toolwright/tool' {
  interface ToolArgsMap {
    lookup: { fn: typeof lookup; args: { path: Parameters<typeof lookup>[0]; limit?: Parameters<typeof lookup>[1] } };
  }
}
expectType<{ path: string; limit?: Integer | undefined }>({} as ToolArgs<'lookup'>);
expectType<{ path: string; limit?: Integer | undefined }>({} as ToolArgs<typeof lookup>);
expectAssignable<ToolArgs<typeof lookup>>({ path: 'a' });
expectNotAssignable<ToolArgs<typeof lookup>>({ limit: 1 as Integer });
expectType<never>({} as ToolArgs<'no_such_tool'>);

// A tool's question is typed from its form: required fields present, others optional, a choice's members kept.
declare const context: import('@toolwright/tool').ToolCallContext;
void (async () => {
  const answer = await context.elicit('Deploy where?', {
    type: 'object',
    properties: { branch: { type: 'string' }, replicas: { type: 'integer' }, mode: { type: 'string', enum: ['fast', 'safe'] }, confirm: { type: 'boolean' } },
    required: ['branch', 'mode'],
  });
  if (answer.action === 'accept') {
    expectType<string>(answer.content.branch);
    expectType<'fast' | 'safe'>(answer.content.mode);
    expectType<number | undefined>(answer.content.replicas);
    expectType<boolean | undefined>(answer.content.confirm);
  } else if (answer.action === 'unavailable') {
    expectType<string>(answer.message);
  }
  // A form must be flat: a field that is an object is refused.
  expectError(context.elicit('x', { type: 'object', properties: { address: { type: 'object' } } }));
})();

// Titled choices and multi-selects keep their members; a round of questions is typed per key and kind.
void (async () => {
  const answer = await context.elicit('Pick', {
    type: 'object',
    properties: {
      size: {
        type: 'string',
        oneOf: [
          { const: 's', title: 'Small' },
          { const: 'l', title: 'Large' },
        ],
      },
      colours: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] } },
      tags: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }] } },
    },
    required: ['size', 'colours'],
  });
  if (answer.action === 'accept') {
    expectType<'s' | 'l'>(answer.content.size);
    expectType<('red' | 'blue')[]>(answer.content.colours);
    expectType<'x'[] | undefined>(answer.content.tags);
  }
  const round = await context.ask({
    name: { kind: 'form', message: 'Name?', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    poem: { kind: 'sample', messages: [{ role: 'user', content: { type: 'text', text: 'A poem' } }], maxTokens: 50 },
    roots: { kind: 'roots' },
  });
  if (round.name.action === 'accept') expectType<string>(round.name.content.name);
  if (round.poem.action === 'accept') expectType<string>(round.poem.content.model);
  if (round.roots.action === 'accept') expectType<string>(round.roots.content[0]!.uri);
  if (round.roots.action === 'unavailable') expectType<string>(round.roots.message);
  // A question of no kind a client answers is refused.
  expectError(context.ask({ q: { kind: 'telepathy' } }));
})();
