import { tool } from '@toolwright/tool';
import { ToolRegistry, toOpenAIChatTools } from '@toolwright/registry';
import { ToolExecutor, runToolTurn } from '@toolwright/executor';

/**
 * Adds two numbers.
 * @param a First addend.
 * @param b Second addend.
 */
export const add = tool(async function add(a: number, b: number) {
  return a + b;
});

async function main() {
  const registry = new ToolRegistry();
  registry.register(add);
  const executor = new ToolExecutor({ registry });
  // Send `toOpenAIChatTools(registry.list())` as `tools`; here a response is written by hand.
  console.log(toOpenAIChatTools(registry.list())[0]!.function.name);
  const response = { choices: [{ message: { tool_calls: [{ type: 'function' as const, id: 'call_1', function: { name: 'add', arguments: '{"a":2,"b":3}' } }] } }] };
  const { messages } = await runToolTurn(executor, { format: 'openai-chat', response });
  console.log(JSON.stringify(messages)); // append to the conversation and ask the model again
}

void main();
