import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTaskStore, MemoryTaskStore, TaskFileInUseError, type TaskRecord } from './task-store.js';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tasksFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-tasks-'));
  folders.push(dir);
  return path.join(dir, '.toolwright', 'tasks.jsonl');
}

function task(taskId: string, status: TaskRecord['status'], change: Partial<TaskRecord> = {}): TaskRecord {
  const now = new Date().toISOString();
  return { taskId, callId: `call_${taskId}`, tool: 'slow', status, createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, pollIntervalMs: 500, ...change };
}

describe(FileTaskStore, () => {
  it('keeps tasks across a restart: a finished one as it was, a running one as failed (interrupted)', () => {
    const file = tasksFile();
    const first = new FileTaskStore(file);
    first.put(task('done', 'completed', { result: { content: [{ type: 'text', text: 'ok' }] } }));
    first.put(task('running', 'working'));
    first.put(task('asking', 'input_required', { inputRequests: { q: { method: 'elicitation/create' } } }));
    first.close();
    const second = new FileTaskStore(file);
    expect(second.get('done')).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } });
    for (const id of ['running', 'asking']) {
      const after = second.get(id)!;
      expect(after).toMatchObject({ status: 'failed', callId: `call_${id}`, error: { code: -32603, message: expect.stringContaining('interrupted') } });
      expect(after.inputRequests).toBeUndefined();
    }
    second.close();
    // The file was rewritten with one line per task: it does not grow with every restart.
    expect(fs.readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('does not grow without bound: the lines of changes are folded into one per task', () => {
    const file = tasksFile();
    const store = new FileTaskStore(file);
    for (let i = 0; i < 3000; i++) store.put(task(`t${i % 10}`, i % 2 === 0 ? 'working' : 'input_required'));
    expect(fs.readFileSync(file, 'utf8').trim().split('\n').length).toBeLessThanOrEqual(1001);
    store.put(task('t0', 'completed'));
    store.close();
    const again = new FileTaskStore(file);
    expect(again.get('t0')?.status).toBe('completed');
    expect(again.get('t9')?.status).toBe('failed'); // it was asking when the store closed: interrupted
    again.close();
  });

  it('drops a task past its ttlMs, and a line that is not a task (a torn write, an edit)', () => {
    const file = tasksFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = task('old', 'completed', { createdAt: new Date(Date.now() - 120_000).toISOString() });
    fs.writeFileSync(
      file,
      `${JSON.stringify(old)}\n{"taskId": 7}\nnot json\n${JSON.stringify(task('kept', 'completed')).slice(0, 40)}\n${JSON.stringify(task('fine', 'cancelled'))}\n`,
    );
    const store = new FileTaskStore(file);
    expect(store.get('old')).toBeUndefined();
    expect(store.get('fine')?.status).toBe('cancelled');
    store.close();
  });

  it('is one live process’s at a time, and taken over from a process that is gone', () => {
    const file = tasksFile();
    const first = new FileTaskStore(file);
    // The first store holds it (this very process: a second store of the same process is refused too).
    expect(() => new FileTaskStore(file)).toThrow(TaskFileInUseError);
    const owner = (pid: number, hostname: string) => JSON.stringify({ pid, hostname, startedAt: new Date().toISOString() });
    fs.writeFileSync(`${file}.lock`, owner(process.pid, 'another-host')); // a process elsewhere, whatever its pid
    expect(() => new FileTaskStore(file)).toThrow(TaskFileInUseError);
    fs.writeFileSync(`${file}.lock`, owner(999_999_999, os.hostname())); // no such process here
    const second = new FileTaskStore(file);
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    second.close();
    first.close();
  });
});

describe(MemoryTaskStore, () => {
  it('keeps no more than maxKept tasks, forgetting the oldest finished ones, never a running one', () => {
    const store = new MemoryTaskStore(3);
    store.put(task('running', 'working'));
    for (const id of ['a', 'b', 'c', 'd']) store.put(task(id, 'completed'));
    expect(['running', 'a', 'b', 'c', 'd'].map((id) => store.get(id)?.status)).toEqual(['working', undefined, undefined, 'completed', 'completed']);
  });

  it('forgets a task past its ttlMs', () => {
    const store = new MemoryTaskStore();
    store.put(task('gone', 'completed', { createdAt: new Date(Date.now() - 61_000).toISOString() }));
    store.put(task('here', 'working'));
    expect(store.get('gone')).toBeUndefined();
    expect(store.get('here')?.status).toBe('working');
  });
});
