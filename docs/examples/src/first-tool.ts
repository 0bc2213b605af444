import { tool, type Integer } from '@toolwright/tool';
import { ToolRegistry } from '@toolwright/registry';
import { ToolExecutor } from '@toolwright/executor';
import { getToolDeclaration } from '@toolwright/schema';

/**
 * Returns the weather forecast for a city.
 * @param city City name, e.g. "Lisbon".
 * @param days Number of days to forecast.
 */
export const getForecast = tool(async function getForecast(city: string, /** @minimum 1 @maximum 7 */ days: Integer = 3) {
  return Array.from({ length: days }, (_, i) => ({ city, day: i + 1, summary: 'sunny' }));
});

async function main() {
  // The transformer attached the declaration at build time.
  console.log(JSON.stringify(getToolDeclaration(getForecast)?.parameters));
  const registry = new ToolRegistry();
  registry.register(getForecast);
  const executor = new ToolExecutor({ registry });
  const ok = await executor.executeToolCall({ id: 'call_1', name: 'get_forecast', arguments: '{"city":"Lisbon","days":2}' });
  console.log(ok.status, ok.content);
  const bad = await executor.executeToolCall({ id: 'call_2', name: 'get_forecast', arguments: '{"days":9}' });
  console.log(bad.status, bad.content);
}

void main();
