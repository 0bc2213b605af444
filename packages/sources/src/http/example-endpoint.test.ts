// The endpoint examples/http-tools uses, run as its README says and called as its tool is.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHttp } from './run-http.js';
import { httpRequest } from './test-support/http-request.js';

const SERVER = path.resolve(__dirname, '../../../../examples/http-tools/server.mjs');
let child: ChildProcess;
let url = '';

beforeAll(async () => {
  child = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  url = /(http:\/\/\S+)/.exec(line.toString())![1]!;
});
afterAll(async () => {
  child.kill();
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
});

const call = (input: Record<string, unknown>) => runHttp(httpRequest(url, { allowAddresses: ['127.0.0.1'] }, { input }));

describe('examples/http-tools/server.mjs', () => {
  it.for([
    [
      { value: 100, from: 'C' },
      { value: 212, unit: 'F' },
    ],
    [
      { value: -40, from: 'F' },
      { value: -40, unit: 'C' },
    ],
    [
      { value: 212, from: 'F' },
      { value: 100, unit: 'C' },
    ],
  ] as [Record<string, unknown>, unknown][])('converts %j to %j', async ([input, expected]) => {
    await expect(call(input)).resolves.toEqual(expected);
  });

  it('answers arguments it cannot use with 400 and a reason', async () => {
    await expect(call({ value: 'hot', from: 'C' })).rejects.toMatchObject({
      code: 'http_error',
      message: expect.stringContaining('`value` must be a finite number'),
    });
    await expect(call({ value: 1, from: 'K' })).rejects.toMatchObject({ code: 'http_error', message: expect.stringContaining('`from` must be "C" or "F"') });
  });
});
