import { expectError, expectType } from 'tsd';
import { fromFunction, lazyTool, type RegisteredTool } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';

declare const declaration: ToolDeclaration;

async function readFile(path: string, maxBytes?: number): Promise<string> {
  return `${path}:${maxBytes ?? 0}`;
}
const toolkit = {
  prefix: 'x',
  async scrape(this: { prefix: string }, options: { url: string }) {
    return this.prefix + options.url;
  },
};

// A function with typed parameters adapts as it is: the declaration says what it is called with.
expectType<RegisteredTool>(fromFunction(declaration, readFile));
expectType<RegisteredTool>(fromFunction(declaration, toolkit.scrape, toolkit));
expectType<RegisteredTool>(lazyTool(declaration, async () => readFile));
expectType<RegisteredTool>(lazyTool(declaration, async () => ({ fn: toolkit.scrape, self: toolkit })));
// What is not a function is not a tool.
expectError(fromFunction(declaration, 'readFile'));
