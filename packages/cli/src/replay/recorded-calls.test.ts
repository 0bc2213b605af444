import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { readRecordedCalls } from './recorded-calls.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-replay-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;
function logOf(...records: Record<string, unknown>[]): string {
  const file = path.join(dir, `audit-${++files}.jsonl`);
  fs.writeFileSync(file, records.map((record, index) => JSON.stringify({ seq: index + 1, time: '2026-01-01T00:00:00.000Z', ...record })).join('\n') + '\n');
  return file;
}

const requested = (callId: string, tool = 'add', args: unknown = { a: 1, b: 2 }) => ({
  type: 'ToolCallRequested',
  callId,
  tool,
  args,
  argsHash: `hash-${callId}`,
  tier: 'read-only',
});

describe(readRecordedCalls, () => {
  it('pairs each validated request with how it ended, in seq order', () => {
    const file = logOf(
      requested('c1'),
      { type: 'PolicyDecision', callId: 'c1', effect: 'allow' },
      requested('c2', 'clock', { zone: 'UTC' }),
      { type: 'ToolCallCompleted', callId: 'c1', outputHash: 'h1', output: { sum: 3 } },
      { type: 'ToolCallFailed', callId: 'c2', code: 'tool_failed' },
      requested('c3'),
      { type: 'ToolCallRejected', callId: 'c3', code: 'policy_denied' },
      requested('c4'),
    );
    const { calls, unvalidated, torn } = readRecordedCalls(file);
    expect(calls).toEqual([
      { seq: 1, callId: 'c1', tool: 'add', args: { a: 1, b: 2 }, argsHash: 'hash-c1', outcome: 'completed', outputHash: 'h1', output: { sum: 3 } },
      { seq: 3, callId: 'c2', tool: 'clock', args: { zone: 'UTC' }, argsHash: 'hash-c2', outcome: 'failed' },
      { seq: 6, callId: 'c3', tool: 'add', args: { a: 1, b: 2 }, argsHash: 'hash-c3', outcome: 'rejected' },
      { seq: 8, callId: 'c4', tool: 'add', args: { a: 1, b: 2 }, argsHash: 'hash-c4', outcome: 'unfinished' },
    ]);
    expect({ unvalidated, torn }).toEqual({ unvalidated: 0, torn: false });
  });

  it('leaves out calls refused before their arguments were validated, and counts them', () => {
    const file = logOf(
      { type: 'ToolCallRequested', callId: 'c1', tool: 'nope', args: '{"a":' },
      { type: 'ToolCallRejected', callId: 'c1', code: 'unknown_tool' },
      requested('c2'),
    );
    const { calls, unvalidated } = readRecordedCalls(file);
    expect(calls.map((call) => call.callId)).toEqual(['c2']);
    expect(unvalidated).toBe(1);
  });

  it('ignores a torn last line and says so', () => {
    const file = logOf(requested('c1'));
    fs.appendFileSync(file, '{"seq":2,"type":"ToolCallComp');
    expect(readRecordedCalls(file)).toMatchObject({ calls: [{ callId: 'c1' }], torn: true });
  });

  it.for([
    ['a missing file', () => path.join(dir, 'missing.jsonl'), 'Cannot read the audit log', 'no such file', 2],
    ['a folder', () => dir, 'Cannot read the audit log', 'it is not a file', 2],
    [
      'a line that is no JSON',
      () => (fs.writeFileSync(path.join(dir, 'bad.jsonl'), 'garbage\n{"seq":1,"type":"x","callId":"c"}\n'), path.join(dir, 'bad.jsonl')),
      'is corrupt at line 1',
      'not valid JSON',
      1,
    ],
    ['a request without a call id', () => logOf({ ...requested('c1'), callId: 7 }), 'record seq 1', 'a ToolCallRequested record without a callId', 1],
    ['a request without a tool', () => logOf({ ...requested('c1'), tool: '' }), 'record seq 1', 'the ToolCallRequested record of c1 names no tool', 1],
    [
      'a request whose seq is a fraction',
      () => logOf({ ...requested('c1'), seq: 1.5 }),
      'record seq 1.5',
      'a ToolCallRequested record whose seq is not a whole number',
      1,
    ],
    [
      'a request whose seq is negative',
      () => logOf({ ...requested('c1'), seq: -1 }),
      'record seq -1',
      'a ToolCallRequested record whose seq is not a whole number',
      1,
    ],
    [
      'a request whose seq is unsafe',
      () => logOf({ ...requested('c1'), seq: 2 ** 60 }),
      'record seq',
      'a ToolCallRequested record whose seq is not a whole number',
      1,
    ],
    [
      'arguments that are no object',
      () => logOf(requested('c1', 'add', [1, 2])),
      'record seq 1',
      'the ToolCallRequested record of c1 holds no argument object',
      1,
    ],
    [
      'a completion without its hash',
      () => logOf(requested('c1'), { type: 'ToolCallCompleted', callId: 'c1' }),
      'record seq 2',
      'a ToolCallCompleted record without its outputHash',
      1,
    ],
  ] as const)('refuses %s with an error naming it', ([, file, where, what, exitCode]) => {
    let thrown: unknown;
    try {
      readRecordedCalls(file());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CliError);
    expect((thrown as CliError).message).toContain(where);
    expect((thrown as CliError).message).toContain(what);
    expect((thrown as CliError).exitCode).toBe(exitCode);
  });
});
