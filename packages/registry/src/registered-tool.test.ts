import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { describe, expect, it } from 'vitest';
import { fromFunction, lazyTool, renderedAs, withModelRendering } from './registered-tool.js';
import { ToolRegistry } from './tool-registry.js';

function declare(parameterOrder: string[], argumentPassing?: ToolDeclaration['argumentPassing']): ToolDeclaration {
  return {
    name: 'scrape',
    description: 'Scrapes a page.',
    parameterOrder,
    parameters: { type: 'object', properties: Object.fromEntries(parameterOrder.map((p) => [p, {}])), required: [], additionalProperties: false },
    ...(argumentPassing ? { argumentPassing } : {}),
    metadata: {
      tier: 'read-only',
      timeoutMs: 1000,
      sideEffects: [],
      capabilities: [],
      determinism: 'maybe',
      resources: { timeoutMs: 1000 },
      parallel: true,
      tags: [],
    },
  };
}

describe(fromFunction, () => {
  it('spreads the arguments into positional parameters in parameterOrder', async () => {
    const received: unknown[][] = [];
    const tool = fromFunction(declare(['url', 'formats']), async (...args: unknown[]) => received.push(args));
    await tool.invoke({ formats: ['markdown'], url: 'https://example.com' });
    expect(received).toEqual([['https://example.com', ['markdown']]]);
  });

  it('passes a flattened tool one object holding the arguments that were sent', async () => {
    const received: unknown[][] = [];
    const tool = fromFunction(declare(['url', 'formats', 'timeout'], 'object'), async (...args: unknown[]) => received.push(args));
    await tool.invoke({ formats: ['markdown'], url: 'https://example.com' });
    expect(received).toEqual([[{ url: 'https://example.com', formats: ['markdown'] }]]);
    expect(Object.keys(received[0]![0] as object)).toEqual(['url', 'formats']);
    expect(Object.hasOwn(received[0]![0] as object, 'timeout')).toBe(false);
  });

  it('turns a synchronous throw into a rejection with the thrown value itself, also when it is no Error', async () => {
    const error = new RangeError('bad');
    const throwsError = fromFunction(declare([]), () => {
      throw error;
    });
    const invoked = throwsError.invoke({});
    expect(invoked).toBeInstanceOf(Promise);
    await expect(invoked).rejects.toBe(error);
    const thrown = { code: 'odd' };
    await expect(
      fromFunction(declare([]), () => {
        throw thrown;
      }).invoke({}),
    ).rejects.toBe(thrown);
  });

  it('gives a flattened tool an empty object when no argument is sent, so its defaults apply', async () => {
    const tool = fromFunction(declare(['limit'], 'object'), async ({ limit = 10 }: { limit?: number }) => limit);
    await expect(tool.invoke({})).resolves.toBe(10);
    await expect(tool.invoke({ limit: 3 })).resolves.toBe(3);
  });

  it("gives a flattened tool its own copy: changing it leaves the caller's arguments alone", async () => {
    const args = { tags: ['a'], url: 'u' };
    const tool = fromFunction(declare(['url', 'tags'], 'object'), async (options: { url?: string }) => {
      options.url = 'changed';
      return options;
    });
    const result = await tool.invoke(args);
    expect(result).not.toBe(args);
    expect(args.url).toBe('u');
  });

  it('binds a flattened toolkit method to its instance', async () => {
    const toolkit = {
      prefix: 'got ',
      async scrape(this: { prefix: string }, options: { url: string }) {
        return this.prefix + options.url;
      },
    };
    const tool = fromFunction(declare(['url'], 'object'), toolkit.scrape, toolkit);
    await expect(tool.invoke({ url: 'x' })).resolves.toBe('got x');
  });
});

describe(lazyTool, () => {
  it('passes a flattened tool one object once loaded', async () => {
    const tool = lazyTool(
      declare(['url'], 'object'),
      async () =>
        async (...args: unknown[]) =>
          args,
    );
    await expect(tool.invoke({ url: 'x' })).resolves.toEqual([{ url: 'x' }]);
  });
});

const declared = (name: string): ToolDeclaration =>
  ({
    name,
    description: `${name} for tests`,
    parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    parameterOrder: [],
    metadata: { tier: 'read-only', sideEffects: ['none'], capabilities: [], tags: [], determinism: 'deterministic', timeoutMs: 1000 },
  }) as unknown as ToolDeclaration;

describe(withModelRendering, () => {
  it('gives the registered tool the renderer, however it is registered', async () => {
    const count = async () => ({ n: 3 });
    withModelRendering(count, (output) => `${output.n} items`);
    expect(fromFunction(declared('count'), count).renderForModel?.({ n: 2 })).toBe('2 items');

    class Kit {
      async list() {
        return ['a', 'b'];
      }
    }
    attachToolDeclaration(Kit.prototype.list, declared('list'));
    withModelRendering(Kit.prototype.list, (names) => names.join('\n'));
    const [tool] = new ToolRegistry().registerToolkit(new Kit());
    expect(tool!.renderForModel?.(await tool!.invoke({}))).toBe('a\nb');
  });

  it('leaves tools without one to the JSON of their output', () => {
    expect(fromFunction(declared('plain'), async () => 1).renderForModel).toBeUndefined();
    expect('renderForModel' in lazyTool(declared('lazy'), async () => async () => 1)).toBe(false);
  });
});

describe(renderedAs, () => {
  it('attaches the renderer to a decorated method, in the standard and the legacy form', async () => {
    class Kit {
      async list() {
        return ['a', 'b'];
      }
    }
    // As the compiler applies a standard method decorator (test files are not compiled with decorators).
    renderedAs((names: string[]) => names.join(', '))(Kit.prototype.list, { kind: 'method', name: 'list' } as ClassMethodDecoratorContext);
    attachToolDeclaration(Kit.prototype.list, declared('list'));
    const [tool] = new ToolRegistry().registerToolkit(new Kit());
    expect(tool!.renderForModel?.(await tool!.invoke({}))).toBe('a, b');

    const legacy = {
      async count() {
        return 3;
      },
    };
    const descriptor = Object.getOwnPropertyDescriptor(legacy, 'count')!;
    renderedAs((n: number) => `${n} items`)(legacy, 'count', descriptor);
    expect(fromFunction(declared('count'), legacy.count).renderForModel?.(2)).toBe('2 items');
  });

  it('refuses anything but a method', () => {
    // Deliberately wrong: a class where a method belongs.
    expect(() => renderedAs(String)(class {} as unknown as () => string, { kind: 'class' } as unknown as ClassMethodDecoratorContext)).toThrow(
      '@renderedAs() decorates methods only.',
    );
  });
});
