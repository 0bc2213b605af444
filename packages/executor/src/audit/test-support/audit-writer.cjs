// A real child process for the durability tests. It appends through the built executor and prints
// "ack <seq>" for every acknowledged record; the parent SIGKILLs it at an injected point.
//   MODE=log   DURABILITY=always|batched   POINT=after-ack|mid-write
//   MODE=executor: runs a side-effecting call whose tool never finishes (killed while running)
const path = require('node:path');
const fs = require('node:fs');
const dist = path.resolve(__dirname, '../../../dist');
const { AuditLog, ToolExecutor } = require(path.join(dist, 'index.js'));
const logPath = process.argv[2];

async function main() {
  const log = await AuditLog.open(logPath, { durability: process.env.DURABILITY || 'always' });
  if (process.env.MODE === 'executor') {
    const { ToolRegistry } = require(path.resolve(dist, '../../registry/dist/index.js'));
    const { attachToolDeclaration } = require(path.resolve(dist, '../../schema/dist/index.js'));
    const meta = (tier) => ({ tier, timeoutMs: 60000, sideEffects: [], capabilities: [], determinism: 'maybe', resources: { timeoutMs: 60000 }, parallel: tier === 'read-only', tags: [] });
    const registry = new ToolRegistry();
    registry.register(attachToolDeclaration(async () => 'done', { name: 'quick_read', description: 'd', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, parameterOrder: [], metadata: meta('read-only') }));
    registry.register(attachToolDeclaration(() => { process.stdout.write('running\n'); return new Promise(() => {}); }, { name: 'slow_write', description: 'd', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, parameterOrder: [], metadata: meta('side-effecting') }));
    const executor = new ToolExecutor({ registry, audit: log });
    const done = await executor.executeToolCall({ id: 'c-done', name: 'quick_read', arguments: '{}' });
    await log.flush();
    process.stdout.write(`completed ${done.status}\n`);
    await executor.executeToolCall({ id: 'c-write', name: 'slow_write', arguments: '{}' });
    return;
  }
  for (let i = 0; ; i++) {
    if (process.env.POINT === 'mid-write' && i === 50) {
      fs.appendFileSync(logPath, '{"seq":51,"type":"ToolCallReq');
      process.kill(process.pid, 'SIGKILL');
    }
    const batch = [];
    for (let k = 0; k < 5; k++) batch.push(log.append({ type: 'ToolCallRequested', callId: `c${i}_${k}`, tool: 't' }).then(() => log.lastSeq));
    await Promise.all(batch);
    process.stdout.write(`ack ${log.lastSeq}\n`);
  }
}
main().catch((error) => {
  process.stderr.write(String(error && error.stack || error));
  process.exit(1);
});
