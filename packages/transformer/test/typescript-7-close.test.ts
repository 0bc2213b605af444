// Closing TypeScript 7's API ends the native compiler with SIGKILL, before its pipes close: ended with SIGTERM it
// now and then printed "context canceled" on the stderr it shares with the CLI (1 `toolwright emit` in 200 under
// load). The real API of each installed line, so that a minor that moves its channel fails here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endSilently } from '../src/front-end/typescript-7/typescript-7-api.js';
import { typeScript7Installs } from './typescript-7.js';

type Child = { pid: number; exitCode: number | null; signalCode: string | null; once(event: 'exit', listener: () => void): void };
type Client = { close(): void; client: { channel: { child: Child } } };

const exited = (child: Child) =>
  new Promise<string | number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode ?? child.exitCode);
    else child.once('exit', () => resolve(child.signalCode ?? child.exitCode));
  });

describe('ending the native compiler', () => {
  it('kills it first, with SIGKILL, then lets the channel close; kill() itself sends SIGKILL', () => {
    const calls: string[] = [];
    const client = { client: { channel: { child: { kill: (signal?: string) => (calls.push(`kill ${signal}`), true) }, close: () => calls.push('close') } } };
    endSilently(client);
    client.client.channel.close();
    client.client.channel.child.kill();
    expect(calls).toEqual(['kill SIGKILL', 'close', 'kill SIGKILL']);
  });

  it('leaves a client whose channel is elsewhere as it is', () => {
    const client = { close: () => undefined };
    expect(() => endSilently(client)).not.toThrow();
    expect(() => endSilently(undefined)).not.toThrow();
  });

  for (const install of typeScript7Installs()) {
    it.skipIf(!fs.existsSync(path.join(install.dir, 'package.json')))(`TypeScript ${install.line}: close() ends the compiler by SIGKILL`, async () => {
      const { API } = (await import(pathToFileURL(path.join(install.dir, 'dist/api/sync/api.js')).href)) as {
        API: new (options: { cwd: string }) => Client;
      };
      const client = new API({ cwd: os.tmpdir() });
      const child = client.client.channel.child;
      expect(child.pid).toBeGreaterThan(0);
      endSilently(client);
      client.close();
      expect(await exited(child)).toBe('SIGKILL');
    });
  }
});
