import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { JsonText } from '../ports.js';
import { AuditLog } from './audit-log.js';
import { AuditLogCorruptError, AuditLogLockedError, AuditWriteError } from './audit-errors.js';
import { readAuditLog } from './read-audit-log.js';
import { markInterrupted, planRecovery } from './recovery.js';
import { escapeTerminalControlsInJson } from '../terminal-safe.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-audit-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => path.join(dir, `audit-${++n}.jsonl`);

describe(AuditLog, () => {
  it.for(['always', 'batched', 'none'] as const)('appends JSONL records with a monotonic seq (%s)', async (durability) => {
    const file = fresh();
    const log = await AuditLog.open(file, { durability });
    await Promise.all([1, 2, 3].map((i) => log.append({ type: 'ToolCallRequested', callId: `c${i}`, tool: 't' })));
    await log.close();
    const { records } = readAuditLog(file);
    expect(records.map((r) => [r.seq, r.callId])).toEqual([
      [1, 'c1'],
      [2, 'c2'],
      [3, 'c3'],
    ]);
    expect(records[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('writes each line as JSON.stringify would, splicing JsonText fields in as they are', async () => {
    const file = fresh();
    const log = await AuditLog.open(file, { durability: 'none' });
    const entries = fc.sample(
      fc.record({
        callId: fc.string({ unit: 'binary' }),
        tool: fc.string(),
        value: fc.jsonValue(),
        'odd "key"\n': fc.oneof(fc.constant(undefined), fc.integer(), fc.string({ unit: 'grapheme' })),
      }),
      300,
    );
    for (const entry of entries) log.record({ type: 'ToolCallRequested', ...entry, args: new JsonText(JSON.stringify(entry.value)) });
    await log.close();
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(entries.length);
    lines.forEach((line, i) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      const { seq, time, ...rest } = record;
      expect(seq).toBe(i + 1);
      expect(line).toBe(
        escapeTerminalControlsInJson(
          JSON.stringify({ seq, time, type: 'ToolCallRequested', ...entries[i], args: JSON.parse(JSON.stringify(entries[i]!.value)) }),
        ),
      );
      expect(rest.args).toEqual(JSON.parse(JSON.stringify(entries[i]!.value)));
    });
  });

  it('writes no character a terminal acts on raw: DEL, C1 and bidi controls, U+2028/U+2029 become escapes of the same value', async () => {
    const file = fresh();
    const log = await AuditLog.open(file, { durability: 'none' });
    const hostile = `a\u009b2Jb\u007fc\u0085d\u202ee\u2066f\u2028g\u001b[31m`;
    log.record({ type: 'ToolCallRequested', callId: hostile, tool: 't', args: new JsonText(JSON.stringify({ [hostile]: [hostile] })) });
    await log.close();
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    const record = JSON.parse(text) as Record<string, unknown>;
    expect(record.callId).toBe(hostile);
    expect(record.args).toEqual({ [hostile]: [hostile] });
  });

  it('writes full batches at once, even for a producer that never yields to the event loop', async () => {
    const file = fresh();
    const log = await AuditLog.open(file, { durability: 'batched', maxBatchRecords: 100, batchIntervalMs: 60_000 });
    for (let i = 0; i < 1050; i++) log.record({ type: 'CapabilityCheck', callId: `c${i}` });
    // No await since the first record: only full batches can have reached the file.
    expect(fs.readFileSync(file, 'utf8').split('\n').length - 1).toBe(1000);
    await log.close();
    expect(readAuditLog(file).records).toHaveLength(1050);
  });

  it('syncs lines written while a sync was running, even when nothing waits for them', async () => {
    const file = fresh();
    const log = await AuditLog.open(file, { durability: 'batched', maxBatchRecords: 1 });
    const syncs = vi.spyOn(fs, 'fdatasync');
    try {
      log.record({ type: 'CapabilityCheck', callId: 'a' }); // written at once; the first sync starts
      log.record({ type: 'CapabilityCheck', callId: 'b' }); // written while it runs
      await vi.waitFor(() => expect(syncs).toHaveBeenCalledTimes(2));
    } finally {
      syncs.mockRestore();
      await log.close();
    }
  });

  it('refuses appends once close has begun and acknowledges the ones before it', async () => {
    const file = fresh();
    const log = await AuditLog.open(file, { durability: 'batched', batchIntervalMs: 60_000 });
    const before = log.append({ type: 'ToolCallRequested', callId: 'before' });
    const closing = log.close();
    await expect(log.append({ type: 'ToolCallRequested', callId: 'after' })).rejects.toMatchObject({ code: 'ECLOSED' });
    await before;
    await closing;
    expect(readAuditLog(file).records.map((r) => r.callId)).toEqual(['before']);
  });

  it('keeps order around a record larger than the write buffer', async () => {
    const file = fresh();
    const log = await AuditLog.open(file, { durability: 'always' });
    const big = 'é'.repeat(300_000);
    const acks = [
      log.append({ type: 'ToolCallRequested', callId: 'before' }),
      log.append({ type: 'ToolCallCompleted', callId: 'big', output: big }),
      log.append({ type: 'ToolCallRequested', callId: 'after' }),
    ];
    await Promise.all(acks);
    await log.close();
    const { records } = readAuditLog(file);
    expect(records.map((r) => [r.seq, r.callId])).toEqual([
      [1, 'before'],
      [2, 'big'],
      [3, 'after'],
    ]);
    expect(records[1]!.output).toBe(big);
  });

  it('continues seq after reopening', async () => {
    const file = fresh();
    let log = await AuditLog.open(file);
    await log.append({ type: 'ToolCallRequested', callId: 'a' });
    await log.close();
    log = await AuditLog.open(file);
    await log.append({ type: 'ToolCallCompleted', callId: 'a' });
    await log.close();
    expect(readAuditLog(file).records.map((r) => r.seq)).toEqual([1, 2]);
  });

  it('repairs a torn last line on reopen and keeps its bytes aside', async () => {
    const file = fresh();
    const log = await AuditLog.open(file);
    await log.append({ type: 'ToolCallRequested', callId: 'a' });
    await log.close();
    fs.appendFileSync(file, '{"seq":2,"type":"ToolCa');
    expect(readAuditLog(file)).toMatchObject({ torn: true, records: [{ seq: 1 }] });
    const notices: string[] = [];
    const reopened = await AuditLog.open(file, { onNotice: (m) => notices.push(m) });
    await reopened.append({ type: 'ToolCallFailed', callId: 'a' });
    await reopened.close();
    expect(readAuditLog(file)).toEqual({
      torn: false,
      records: [expect.objectContaining({ seq: 1 }), expect.objectContaining({ seq: 2, type: 'ToolCallFailed' })],
    });
    expect(notices[0]).toContain('repaired a torn last line');
    expect(fs.readdirSync(dir).some((f) => f.startsWith(`${path.basename(file)}.torn-`))).toBe(true);
  });

  it('reports corruption in the middle of the log with the line number', async () => {
    const file = fresh();
    fs.writeFileSync(file, '{"seq":1,"type":"A","callId":"a"}\nGARBAGE\n{"seq":3,"type":"B","callId":"b"}\n');
    expect(() => readAuditLog(file)).toThrow(AuditLogCorruptError);
    await expect(AuditLog.open(file)).rejects.toThrow('corrupt at line 2');
  });

  it("allows one writer at a time, naming the holder, and breaks a dead holder's lock", async () => {
    const file = fresh();
    const log = await AuditLog.open(file);
    await expect(AuditLog.open(file)).rejects.toBeInstanceOf(AuditLogLockedError);
    const child = spawnSync(
      process.execPath,
      [
        '-e',
        `
      const { acquireLock } = require(${JSON.stringify(path.resolve(__dirname, '../../dist/audit/audit-lock.js'))});
      try { acquireLock(${JSON.stringify(file)}); console.log('acquired'); } catch (e) { console.log(e.name, e.pid); }`,
      ],
      { encoding: 'utf8' },
    );
    expect(child.stdout.trim()).toBe(`AuditLogLockedError ${process.pid}`);
    await log.close();
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: 2 ** 22 + 7, hostname: os.hostname(), startedAt: 'x' }));
    const notices: string[] = [];
    const again = await AuditLog.open(file, { onNotice: (m) => notices.push(m) });
    expect(notices[0]).toContain('broke the stale lock');
    await again.close();
  });

  it('refuses a pipe, whose writes could block the process, and leaves no lock behind', async () => {
    const file = fresh();
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    await expect(AuditLog.open(file)).rejects.toMatchObject({ name: 'AuditWriteError', code: 'EBADTYPE', message: expect.stringContaining('is a pipe') });
    fs.rmSync(file);
    const log = await AuditLog.open(file);
    await log.close();
  });

  it('fails closed on a full disk: the append rejects and so does every later one', async () => {
    const file = path.join(dir, 'full.jsonl');
    fs.symlinkSync('/dev/full', file);
    const log = await AuditLog.open(file, { durability: 'batched' });
    await expect(log.append({ type: 'ToolCallRequested', callId: 'a' })).rejects.toMatchObject({ name: 'AuditWriteError', code: 'ENOSPC' });
    await expect(log.append({ type: 'ToolCallRequested', callId: 'b' })).rejects.toBeInstanceOf(AuditWriteError);
    await log.close();
  });
});

describe('durability with real processes killed by SIGKILL', () => {
  const writer = path.join(__dirname, 'test-support', 'audit-writer.cjs');
  beforeAll(() => {
    expect(fs.existsSync(path.resolve(__dirname, '../../dist/index.js')), 'run the build first (npm test does)').toBe(true);
  });

  function runUntil(args: string[], env: Record<string, string>, stopWhen: (out: string) => boolean): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [writer, ...args], { env: { ...process.env, ...env } });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (stopWhen(out)) child.kill('SIGKILL');
      });
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(out) : reject(new Error(`writer exited ${code}: ${err}`))));
    });
  }

  it.for(['always', 'batched'] as const)('keeps every acknowledged record when killed mid-stream (%s)', async (durability) => {
    const file = fresh();
    const out = await runUntil([file], { MODE: 'log', DURABILITY: durability }, (text) => (text.match(/^ack /gm)?.length ?? 0) >= 30);
    const acked = Math.max(...[...out.matchAll(/^ack (\d+)$/gm)].map((m) => Number(m[1])));
    const { records } = readAuditLog(file);
    const seqs = new Set(records.map((r) => r.seq));
    for (let s = 1; s <= acked; s++) expect(seqs.has(s), `acknowledged seq ${s} survived`).toBe(true);
    const log = await AuditLog.open(file);
    await log.close();
  });

  it('repairs a record torn by a kill mid-write', async () => {
    const file = fresh();
    await runUntil([file], { MODE: 'log', POINT: 'mid-write' }, () => false).catch(() => undefined);
    expect(readAuditLog(file).torn).toBe(true);
    const log = await AuditLog.open(file);
    await log.append({ type: 'ToolCallRequested', callId: 'after' });
    await log.close();
    const { records, torn } = readAuditLog(file);
    expect(torn).toBe(false);
    expect(records.at(-1)).toMatchObject({ callId: 'after', seq: 251 });
  });

  it('after a crash, recovery returns logged results, re-runs reads and holds side-effecting calls for confirmation', async () => {
    const file = fresh();
    await runUntil([file], { MODE: 'executor' }, (text) => text.includes('running'));
    const { records } = readAuditLog(file);
    const plan = planRecovery(records, (tool) => tool === 'quick_read');
    expect(plan).toEqual([
      { kind: 'recovered', callId: 'c-done', tool: 'quick_read', output: 'done' },
      { kind: 'needs-confirmation', callId: 'c-write', tool: 'slow_write', args: {} },
    ]);
    const log = await AuditLog.open(file);
    expect(await markInterrupted(log, plan)).toBe(1);
    await log.close();
    expect(planRecovery(readAuditLog(file).records, () => false).filter((a) => a.kind !== 'recovered')).toEqual([]);
  });

  it.for([
    // [kill point, is the side effect done, what recovery plans for the call]
    ['before-requested', false, []],
    ['after-requested', false, [{ kind: 'needs-confirmation', callId: 'c-mark', tool: 'make_marker', args: { name: 'm' } }]],
    ['before-completed', true, [{ kind: 'needs-confirmation', callId: 'c-mark', tool: 'make_marker', args: { name: 'm' } }]],
    ['after-completed', true, [{ kind: 'recovered', callId: 'c-mark', tool: 'make_marker', output: 'made m' }]],
  ] as const)(
    'a side-effecting call killed %s its record: the log parses, the tool ran only after its write-ahead record, recovery never re-runs it',
    async ([point, sideEffect, plan]) => {
      const file = fresh();
      const marker = `${file}.marker`;
      const out = await runUntil([file], { MODE: 'points', POINT: point, MARKER: marker }, () => false);
      expect(out).not.toContain('finished without being killed');
      expect(fs.existsSync(marker)).toBe(sideEffect);
      const { records, torn } = readAuditLog(file);
      expect(torn).toBe(false);
      expect(planRecovery(records, () => false)).toEqual(plan);
      const log = await AuditLog.open(file);
      expect(await markInterrupted(log, plan)).toBe(plan.filter((a) => a.kind === 'needs-confirmation').length);
      await log.close();
      expect(planRecovery(readAuditLog(file).records, () => false).filter((a) => a.kind !== 'recovered')).toEqual([]);
    },
  );

  it('re-runs a dangling read-only call', () => {
    const plan = planRecovery([{ seq: 1, time: 't', type: 'ToolCallRequested', callId: 'r', tool: 'file_read', args: { path: 'a' } }], () => true);
    expect(plan).toEqual([{ kind: 'rerun', callId: 'r', tool: 'file_read', args: { path: 'a' } }]);
  });
});
