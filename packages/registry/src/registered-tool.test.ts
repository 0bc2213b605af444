import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '@toolwright/schema';
import { fromFunction, lazyTool } from './registered-tool.js';

function declare(parameterOrder: string[], argumentPassing?: ToolDeclaration['argumentPassing']): ToolDeclaration {
  return {
    name: 'scrape', description: 'Scrapes a page.', parameterOrder,
    parameters: { type: 'object', properties: Object.fromEntries(parameterOrder.map((p) => [p, {}])), required: [], additionalProperties: false },
    ...(argumentPassing ? { argumentPassing } : {}),
    metadata: { tier: 'read-only', timeoutMs: 1000, sideEffects: [], capabilities: [], determinism: 'maybe', resources: { timeoutMs: 1000 }, parallel: true, tags: [] },
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

  it('gives a flattened tool an empty object when no argument is sent, so its defaults apply', async () => {
    const tool = fromFunction(declare(['limit'], 'object'), async ({ limit = 10 }: { limit?: number }) => limit);
    await expect(tool.invoke({})).resolves.toBe(10);
    await expect(tool.invoke({ limit: 3 })).resolves.toBe(3);
  });

  it('gives a flattened tool its own copy: changing it leaves the caller\'s arguments alone', async () => {
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
    const toolkit = { prefix: 'got ', async scrape(this: { prefix: string }, options: { url: string }) { return this.prefix + options.url; } };
    const tool = fromFunction(declare(['url'], 'object'), toolkit.scrape as (...args: unknown[]) => unknown, toolkit);
    await expect(tool.invoke({ url: 'x' })).resolves.toBe('got x');
  });
});

describe(lazyTool, () => {
  it('passes a flattened tool one object once loaded', async () => {
    const tool = lazyTool(declare(['url'], 'object'), async () => async (...args: unknown[]) => args);
    await expect(tool.invoke({ url: 'x' })).resolves.toEqual([{ url: 'x' }]);
  });
});
