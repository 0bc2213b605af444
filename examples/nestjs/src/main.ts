// The metadata API must exist before any module declaring tools is evaluated: import it first.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ToolExecutor } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { AppModule } from './app.module.js';
import { ToolDiscovery } from './toolwright/tool-discovery.js';

const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
const executor = app.get(ToolExecutor);
const calls = [
  { id: 'call_1', name: 'add_note', arguments: '{"title":"Groceries","body":"Buy oranges"}' },
  { id: 'call_2', name: 'search_notes', arguments: '{"text":"oranges"}' },
  { id: 'call_3', name: 'weekday', arguments: '{"date":"2026-11-23"}' },
  { id: 'call_4', name: 'search_notes', arguments: '{"limit":"ten"}' },
];
const results = [];
for (const call of calls) {
  const result = await executor.executeToolCall(call);
  results.push({ call: call.name, status: result.status, content: result.content, ...(result.status === 'error' ? { code: result.error.code } : {}) });
}
console.log(
  JSON.stringify(
    {
      discovered: app.get(ToolDiscovery).discovered,
      declarations: app.get(ToolRegistry).list(),
      results,
    },
    null,
    2,
  ),
);
await app.close();
