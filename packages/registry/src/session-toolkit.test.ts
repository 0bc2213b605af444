import { describe, expect, it } from 'vitest';
import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { runWithToolContext, TOOL_OPTIONS } from '@toolwright/tool';
import { RegistryError } from './registry-error.js';
import { SessionToolkit } from './session-toolkit.js';
import { ToolRegistry } from './tool-registry.js';

function declaration(name: string, parameterOrder: string[] = []): ToolDeclaration {
  return {
    name,
    description: `The ${name} tool.`,
    parameterOrder,
    parameters: { type: 'object', properties: Object.fromEntries(parameterOrder.map((p) => [p, { type: 'string' }])), additionalProperties: false },
    metadata: { tier: 'read-only', timeoutMs: 1000, sideEffects: [], capabilities: [], determinism: 'maybe', resources: {}, parallel: true, tags: [] },
  } as unknown as ToolDeclaration;
}

let constructed = 0;

/** What the transformer makes of `class Counter { @tool() async remember(item) ... @tool() async recall() ... }`. */
class Counter {
  readonly items: string[] = [];
  constructor() {
    constructed++;
  }
  async remember(item: string): Promise<number> {
    return this.items.push(item);
  }
  async recall(): Promise<string[]> {
    return this.items;
  }
}
attachToolDeclaration(Counter.prototype.remember, declaration('remember', ['item']));
attachToolDeclaration(Counter.prototype.recall, declaration('recall'));

const nobodyToAsk = () => Promise.reject(new Error('a test calls the tool with nobody to ask: it must not ask'));
const inSession = <T>(sessionId: string | undefined, fn: () => Promise<T>) =>
  runWithToolContext(
    {
      callId: 'c',
      toolName: 't',
      signal: new AbortController().signal,
      progress: () => {},
      elicit: nobodyToAsk,
      ask: nobodyToAsk,
      ...(sessionId !== undefined ? { sessionId } : {}),
    },
    fn,
  );

describe(SessionToolkit, () => {
  it("gives each session its own instance, kept across that session's calls, and makes none to list", async () => {
    const registry = new ToolRegistry();
    const before = constructed;
    const kit = registry.registerSessionToolkit(Counter);
    expect(registry.names()).toEqual(['recall', 'remember']);
    expect(registry.list().map((d) => d.name)).toEqual(['recall', 'remember']);
    expect(constructed - before).toBe(0);
    const remember = registry.get('remember')!;
    const recall = registry.get('recall')!;
    expect(await inSession('a', () => remember.invoke({ item: 'a1' }))).toBe(1);
    expect(await inSession('b', () => remember.invoke({ item: 'b1' }))).toBe(1);
    expect(await inSession('a', () => remember.invoke({ item: 'a2' }))).toBe(2);
    expect(await inSession('a', () => recall.invoke({}))).toEqual(['a1', 'a2']);
    expect(await inSession('b', () => recall.invoke({}))).toEqual(['b1']);
    expect(kit.sessions).toBe(2);
    expect(constructed - before).toBe(2);
  });

  it('shares one instance among calls without a session', async () => {
    const kit = new SessionToolkit(Counter);
    const [remember] = kit.tools.filter((t) => t.declaration.name === 'remember');
    await inSession(undefined, () => remember!.invoke({ item: 'x' }));
    await remember!.invoke({ item: 'y' }); // outside any call context
    expect(kit.instanceFor(undefined).items).toEqual(['x', 'y']);
    expect(kit.sessions).toBe(1);
  });

  it('forgets a session at endSession: its next call starts from a new instance', async () => {
    const kit = new SessionToolkit(Counter);
    const remember = kit.tools.find((t) => t.declaration.name === 'remember')!;
    await inSession('s', () => remember.invoke({ item: 'old' }));
    expect(await kit.endSession('s')).toBe(true);
    expect(await kit.endSession('s')).toBe(false);
    expect(kit.sessions).toBe(0);
    expect(await inSession('s', () => remember.invoke({ item: 'new' }))).toBe(1);
  });

  it.for(['asyncDispose', 'dispose'] as const)('disposes of an instance with [Symbol.%s]() when its session ends, and passes on a failure', async (kind) => {
    const disposed: string[] = [];
    const symbol = (Symbol as unknown as Record<string, symbol>)[kind]!;
    class Held extends Counter {
      [symbol]() {
        disposed.push(this.items.join());
        if (this.items.includes('bad')) throw new Error('close failed');
        return kind === 'asyncDispose' ? Promise.resolve() : undefined;
      }
    }
    const kit = new SessionToolkit(Held);
    const remember = kit.tools.find((t) => t.declaration.name === 'remember')!;
    await inSession('a', () => remember.invoke({ item: 'a1' }));
    await inSession('b', () => remember.invoke({ item: 'bad' }));
    await kit.endSession('a');
    expect(disposed).toEqual(['a1']);
    await expect(kit.endSession('b')).rejects.toThrow('close failed');
    expect(kit.sessions).toBe(0);
  });

  it('takes the session and the instance from the options', async () => {
    let session = 'one';
    const kit = new SessionToolkit(Counter, { sessionOf: () => session, create: () => Object.assign(new Counter(), { items: ['seed'] }) });
    const recall = kit.tools.find((t) => t.declaration.name === 'recall')!;
    expect(await recall.invoke({})).toEqual(['seed']);
    session = 'two';
    await kit.tools.find((t) => t.declaration.name === 'remember')!.invoke({ item: 'x' });
    expect(kit.instanceFor('two').items).toEqual(['seed', 'x']);
    expect(kit.instanceFor('one').items).toEqual(['seed']);
  });

  it('fails the call when the constructor throws, and tries again on the next call', async () => {
    let fail = true;
    class Flaky extends Counter {
      constructor() {
        super();
        if (fail) throw new Error('no connection');
      }
    }
    const kit = new SessionToolkit(Flaky);
    const recall = kit.tools.find((t) => t.declaration.name === 'recall')!;
    await expect(inSession('s', () => recall.invoke({}))).rejects.toThrow('no connection');
    fail = false;
    await expect(inSession('s', () => recall.invoke({}))).resolves.toEqual([]);
  });

  it('refuses a class without @tool() methods, and a marked method without a declaration', () => {
    class Plain {
      async run(): Promise<void> {}
    }
    expect(() => new ToolRegistry().registerSessionToolkit(Plain)).toThrow(
      new RegistryError('not_a_tool', 'Plain has no @tool() methods; decorate its methods with @tool() and compile with the Toolwright transformer.'),
    );
    class Undeclared {
      async run(): Promise<void> {}
    }
    Object.defineProperty(Undeclared.prototype.run, TOOL_OPTIONS, { value: {} });
    expect(() => new ToolRegistry().registerSessionToolkit(Undeclared)).toThrow(/Undeclared\.run is marked as a tool but carries no declaration/);
  });
});
