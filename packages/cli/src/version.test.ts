import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './test-support/run-cli.js';

const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };

describe('toolwright --version', () => {
  it.each([['--version'], ['-v'], ['version']])('%s prints the package version and exits 0', async (flag) => {
    expect(await runCli([flag])).toEqual({ status: 0, out: `toolwright ${version}\n`, err: '' });
  });

  it('takes no arguments', async () => {
    expect(await runCli(['version', 'now'])).toMatchObject({ status: 2, err: "toolwright version takes no arguments (got 'now').\n" });
  });

  it('is listed in the usage text', async () => {
    expect((await runCli(['help'])).out).toMatch(/^ {2}version +Print Toolwright's version/m);
  });
});

describe('an unknown command', () => {
  it('names the command it is close to', async () => {
    const result = await runCli(['biuld', '-p', 'tsconfig.json']);
    expect(result.status).toBe(2);
    expect(result.err).toMatch(/^Unknown command 'biuld'\. Did you mean 'build'\?\n/);
  });

  it('suggests nothing when no command is close, and still prints the usage', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.status).toBe(2);
    expect(result.err).toMatch(/^Unknown command 'frobnicate'\.\n\nUsage: toolwright <command>/);
  });
});
