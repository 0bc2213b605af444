import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AuditLog } from './audit-log.js';
import { readAuditLog } from './read-audit-log.js';
import { rotatedFiles } from './rotated-files.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-rotate-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => path.join(fresh.dir(), 'audit.jsonl');
fresh.dir = () => fs.mkdtempSync(path.join(dir, `run-${++n}-`));
const entry = (i: number) => ({ type: 'ToolCallRequested' as const, callId: `c${i}`, tool: 't', note: 'x'.repeat(100) });
const sizes = (file: string) => [...rotatedFiles(file), file].map((f) => fs.statSync(f).size);

describe('AuditLog rotation by size', () => {
  it.for(['always', 'batched', 'none'] as const)(
    'starts a new file before one would pass maxBytes, keeps seq running, and readAuditLog reads every file (%s)',
    async (durability) => {
      const file = fresh();
      const log = await AuditLog.open(file, { durability, rotate: { maxBytes: 1024, keep: 10 } });
      for (let i = 1; i <= 40; i++) await log.append(entry(i)); // one record per write: each file holds whole records
      await log.close();
      const files = sizes(file);
      expect(files.length).toBeGreaterThan(4);
      for (const size of files) expect(size).toBeLessThanOrEqual(1024);
      const { records, torn } = readAuditLog(file);
      expect(torn).toBe(false);
      expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(records.map((r) => r.callId)).toEqual(Array.from({ length: 40 }, (_, i) => `c${i + 1}`));
      // The newest rotated file holds the records just before the current one's.
      const newest = fs
        .readFileSync(`${file}.1`, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { seq: number });
      const current = fs
        .readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { seq: number });
      expect(newest.at(-1)!.seq + 1).toBe(current[0]!.seq);
    },
  );

  it('keeps only `keep` rotated files, dropping the oldest records', async () => {
    const file = fresh();
    const log = await AuditLog.open(file, { rotate: { maxBytes: 1024, keep: 2 } });
    for (let i = 1; i <= 40; i++) await log.append(entry(i));
    await log.close();
    expect(fs.existsSync(`${file}.2`)).toBe(true);
    expect(fs.existsSync(`${file}.3`)).toBe(false);
    const seqs = readAuditLog(file).records.map((r) => r.seq);
    expect(seqs.at(-1)).toBe(40);
    expect(seqs[0]).toBeGreaterThan(1);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i)); // the newest, without a gap
  });

  it('splits a batch larger than a file at record boundaries, and acknowledges every record exactly once', async () => {
    const file = fresh();
    const log = await AuditLog.open(file, { durability: 'batched', rotate: { maxBytes: 4096, keep: 50 } });
    await Promise.all(Array.from({ length: 500 }, (_, i) => log.append(entry(i + 1))));
    await log.close();
    const files = sizes(file);
    expect(files.length).toBeGreaterThan(15);
    for (const size of files) expect(size).toBeLessThanOrEqual(4096);
    expect(
      readAuditLog(file)
        .records.map((r) => r.callId)
        .sort(),
    ).toEqual(Array.from({ length: 500 }, (_, i) => `c${i + 1}`).sort());
  });

  it('continues seq from the rotated files when reopened with an empty current file', async () => {
    const file = fresh();
    let log = await AuditLog.open(file);
    for (let i = 1; i <= 8; i++) await log.append(entry(i));
    await log.close();
    fs.renameSync(file, `${file}.1`); // as if rotated just before the process stopped
    log = await AuditLog.open(file);
    await log.append(entry(9));
    await log.close();
    expect(readAuditLog(file).records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it.for([
    [{ maxBytes: 100 }, 'maxBytes must be an integer of at least 1024, not 100'],
    [{ maxBytes: 2048.5 }, 'maxBytes must be an integer of at least 1024, not 2048.5'],
    [{ maxBytes: 4096, keep: 0 }, 'keep must be an integer of at least 1, not 0'],
  ] as const)('refuses rotation %j with a clear error, leaving no lock behind', async ([rotate, message]) => {
    const file = fresh();
    await expect(AuditLog.open(file, { rotate })).rejects.toThrow(message);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });
});

describe(rotatedFiles, () => {
  it('lists the rotated files oldest first, by number, and nothing else beside the log', () => {
    const file = fresh();
    for (const suffix of ['.1', '.2', '.10', '.lock', '.torn-123', '.01', '.x']) fs.writeFileSync(`${file}${suffix}`, '');
    expect(rotatedFiles(file)).toEqual([`${file}.10`, `${file}.2`, `${file}.1`]);
  });
});

describe("a link put where a rotation freed the log's name", () => {
  // A log in a workspace: a sandboxed command made the freed name a link to a file outside, and the records went there.
  it('is never written through: the write fails, the file it leads to is untouched', async () => {
    const file = fresh();
    const outside = path.join(fresh.dir(), 'outside.sh');
    fs.writeFileSync(outside, "# the host's own\n");
    const log = await AuditLog.open(file, { rotate: { maxBytes: 1024, keep: 2 } });
    const rename = fs.renameSync;
    const planted = vi.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
      rename(from, to);
      if (from === file) fs.symlinkSync(outside, file);
    });
    try {
      let failed: unknown;
      for (let i = 1; i <= 40 && failed === undefined; i++) await log.append(entry(i)).catch((error: unknown) => (failed = error));
      expect(failed).toBeInstanceOf(Error);
      expect(fs.readFileSync(outside, 'utf8')).toBe("# the host's own\n");
    } finally {
      planted.mockRestore();
      await log.close().catch(() => undefined);
    }
    // Opened anew, the link is refused too; one to a device (/dev/null) is not.
    await expect(AuditLog.open(file)).rejects.toThrow(/is a symbolic link to a file/);
    fs.rmSync(file);
    fs.symlinkSync('/dev/null', file);
    const devNull = await AuditLog.open(file);
    await devNull.close();
  });
});
