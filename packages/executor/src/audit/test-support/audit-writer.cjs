// A real child process for the durability tests. It appends through the built executor and prints
// "ack <seq>" for every acknowledged record; the parent SIGKILLs it at an injected point.
//   MODE=log   DURABILITY=always|batched   POINT=after-ack|mid-write
//   MODE=executor: runs a side-effecting call whose tool never finishes (killed while running)
//   MODE=points POINT=before-requested|after-requested|before-completed|after-completed MARKER=<file>:
//     a side-effecting call (its side effect: creating MARKER) killed just before or after the write of
//     its ToolCallRequested or ToolCallCompleted record
const path = require('node:path');
const fs = require('node:fs');
const dist = path.resolve(__dirname, '../../../dist');
const { AuditLog, ToolExecutor } = require(path.join(dist, 'index.js'));
const logPath = process.argv[2];

/** SIGKILLs this process around the write that carries `type` for call `callId`. */
function killAround(type, callId, when) {
  const write = fs.writeSync;
  fs.writeSync = function (fd, data, ...rest) {
    const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    const hit = text.includes(`"type":"${type}","callId":"${callId}"`);
    if (hit && when === 'before') process.kill(process.pid, 'SIGKILL');
    const written = write.call(fs, fd, data, ...rest);
    if (hit && when === 'after') process.kill(process.pid, 'SIGKILL');
    return written;
  };
}

async function main() {
  const log = await AuditLog.open(logPath, { durability: process.env.DURABILITY || 'always' });
  if (process.env.MODE === 'points') {
    const { ToolRegistry } = require(path.resolve(dist, '../../registry/dist/index.js'));
    const { attachToolDeclaration } = require(path.resolve(dist, '../../schema/dist/index.js'));
    const registry = new ToolRegistry();
    const metadata = {
      tier: 'side-effecting',
      timeoutMs: 60000,
      sideEffects: ['fs-write'],
      capabilities: [],
      determinism: 'maybe',
      resources: { timeoutMs: 60000 },
      parallel: false,
      tags: [],
    };
    registry.register(
      attachToolDeclaration(
        async (name) => {
          fs.writeFileSync(process.env.MARKER, name);
          return `made ${name}`;
        },
        {
          name: 'make_marker',
          description: 'd',
          parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
          parameterOrder: ['name'],
          metadata,
        },
      ),
    );
    const executor = new ToolExecutor({ registry, audit: log, riskMode: 'autorun_all' });
    const [when, record] = process.env.POINT.split('-');
    killAround(record === 'requested' ? 'ToolCallRequested' : 'ToolCallCompleted', 'c-mark', when);
    await executor.executeToolCall({ id: 'c-mark', name: 'make_marker', arguments: '{"name":"m"}' });
    await log.flush();
    process.stdout.write('finished without being killed\n');
    return;
  }
  if (process.env.MODE === 'executor') {
    const { ToolRegistry } = require(path.resolve(dist, '../../registry/dist/index.js'));
    const { attachToolDeclaration } = require(path.resolve(dist, '../../schema/dist/index.js'));
    const meta = (tier) => ({
      tier,
      timeoutMs: 60000,
      sideEffects: [],
      capabilities: [],
      determinism: 'maybe',
      resources: { timeoutMs: 60000 },
      parallel: tier === 'read-only',
      tags: [],
    });
    const registry = new ToolRegistry();
    registry.register(
      attachToolDeclaration(async () => 'done', {
        name: 'quick_read',
        description: 'd',
        parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
        parameterOrder: [],
        metadata: meta('read-only'),
      }),
    );
    registry.register(
      attachToolDeclaration(
        () => {
          process.stdout.write('running\n');
          return new Promise(() => {});
        },
        {
          name: 'slow_write',
          description: 'd',
          parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
          parameterOrder: [],
          metadata: meta('side-effecting'),
        },
      ),
    );
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
  process.stderr.write(String((error && error.stack) || error));
  process.exit(1);
});
