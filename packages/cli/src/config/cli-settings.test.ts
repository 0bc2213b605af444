import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SHELL_ALLOW } from '@toolwright/core-tools';
import { settingsOf, shellConfigOf, webConfigOf } from './cli-settings.js';
import type { LoadedConfig } from './load-config.js';
import type { ToolwrightConfig } from './toolwright-config.js';

const DIR = path.resolve('/projects/app/conf');
const CWD = path.resolve('/home/me');
const loaded = (config: ToolwrightConfig): LoadedConfig => ({ file: path.join(DIR, 'toolwright.config.json'), dir: DIR, config });

describe(settingsOf, () => {
  it('without a file: the current directory, the core tools, no policy and the default audit log', () => {
    expect(settingsOf(undefined, {}, {}, CWD)).toEqual({ workspace: { root: CWD }, workspaceFrom: 'cwd', coreTools: {}, executor: {}, tools: { core: true } });
  });

  it("resolves the file's paths against its directory and maps every section", () => {
    const settings = settingsOf(
      loaded({
        workspace: { root: '..', shared: '../shared', protectedPaths: ['/secrets'] },
        vault: { root: 'vault' },
        policy: 'policy.json',
        audit: { path: 'logs/audit.jsonl', durability: 'batched', rotate: { maxBytes: 4096, keep: 2 } },
        risk: 'autorun_none',
        maxOutputBytes: 1000,
        repeatedCalls: { threshold: 5, action: 'deny' },
        tools: { core: false, include: ['a_*'], exclude: ['a_b'], perSession: ['Tally'] },
      }),
      {},
      {},
      CWD,
    );
    expect(settings).toMatchObject({
      configFile: path.join(DIR, 'toolwright.config.json'),
      workspace: { root: path.resolve('/projects/app'), shared: path.resolve('/projects/app/shared'), protectedPaths: ['/secrets'] },
      coreTools: { vault: { root: path.join(DIR, 'vault') } },
      policy: { file: path.join(DIR, 'policy.json') },
      audit: { path: path.join(DIR, 'logs', 'audit.jsonl'), durability: 'batched', rotate: { maxBytes: 4096, keep: 2 } },
      executor: { riskMode: 'autorun_none', maxOutputBytes: 1000, doomLoop: { threshold: 5, action: 'deny' } },
      tools: { core: false, include: ['a_*'], exclude: ['a_b'], perSession: ['Tally'] },
    });
    expect(settingsOf(loaded({ repeatedCalls: false }), {}, {}, CWD).executor.doomLoop).toBe(false);
    expect(settingsOf(loaded({ repeatedCalls: { per: 'server' } }), {}, {}, CWD).executor.doomLoop).toEqual({ per: 'executor' });
    expect(settingsOf(loaded({ repeatedCalls: { threshold: 4, per: 'client' } }), {}, {}, CWD).executor.doomLoop).toEqual({ threshold: 4, per: 'caller' });
  });

  it('maps the output cache: true with the defaults, a section with its folder resolved against the file', () => {
    expect(settingsOf(loaded({ cache: true }), {}, {}, CWD).executor.cache).toEqual({});
    expect(settingsOf(loaded({ cache: false }), {}, {}, CWD).executor).not.toHaveProperty('cache');
    expect(settingsOf(loaded({ cache: { dir: 'cache', maxBytes: 4096, maxMemoryChars: 1000 } }), {}, {}, CWD).executor.cache).toEqual({
      dir: path.join(DIR, 'cache'),
      maxBytes: 4096,
      maxMemoryChars: 1000,
    });
  });

  it('lets the flags win: --workspace, --policy and --audit against the current directory, --no-core', () => {
    const settings = settingsOf(
      loaded({ workspace: { root: '..' }, policy: { rules: [] }, audit: 'none', tools: { core: true } }),
      { workspace: 'ws', policy: 'p.json', audit: 'a.jsonl', core: false },
      {},
      CWD,
    );
    expect(settings).toMatchObject({
      workspace: { root: path.join(CWD, 'ws') },
      policy: { file: path.join(CWD, 'p.json') },
      audit: { path: path.join(CWD, 'a.jsonl') },
      tools: { core: false },
    });
    expect(settingsOf(loaded({ audit: { path: 'x.jsonl' } }), { audit: 'none' }, {}, CWD).audit).toBe('none');
  });

  it('keeps an inline policy with the file it came from', () => {
    expect(settingsOf(loaded({ policy: { rules: [{ allow: 'file_read' }] } }), {}, {}, CWD).policy).toEqual({
      document: { rules: [{ allow: 'file_read' }] },
      configFile: path.join(DIR, 'toolwright.config.json'),
    });
  });
});

describe(shellConfigOf, () => {
  it('adds allow to the defaults, keeps the default permit, and passes the limits', () => {
    expect(shellConfigOf({ allow: ['id', 'ls'], timeoutMs: 5, maxOutputBytes: 6, maxJobs: 7, passEnv: ['CI'], maxLength: 8, maxCommands: 9 })).toEqual({
      backend: 'host',
      timeoutMs: 5,
      maxOutputBytes: 6,
      maxJobs: 7,
      passEnv: ['CI'],
      policy: { allow: [...DEFAULT_SHELL_ALLOW, 'id'], permit: ['glob'], maxLength: 8, maxCommands: 9 },
    });
  });

  it('starts from an empty allowlist with defaultAllow false, and permit replaces the default', () => {
    expect(shellConfigOf({ backend: 'session', allow: ['id'], defaultAllow: false, permit: ['redirection'], maxSessions: 2 })).toEqual({
      backend: 'session',
      maxSessions: 2,
      policy: { allow: ['id'], permit: ['redirection'] },
    });
  });

  it('passes the sandbox settings on', () => {
    expect(
      shellConfigOf({ sandbox: 'required', network: true, readablePaths: ['/opt/node'], limits: { cpuSeconds: 5 }, defaultAllow: false, permit: [] }),
    ).toEqual({
      backend: 'host',
      sandbox: 'required',
      network: true,
      readablePaths: ['/opt/node'],
      limits: { cpuSeconds: 5 },
      policy: { allow: [], permit: [] },
    });
  });

  it('disables the shell with its reason', () => {
    expect(shellConfigOf({ backend: 'disabled', reason: 'no shell here' })).toEqual({ backend: 'disabled', reason: 'no shell here' });
  });
});

describe(webConfigOf, () => {
  it('passes the limits and builds the provider with the key from the named variable', () => {
    const web = webConfigOf(
      {
        allowAddresses: ['10.0.0.0/8'],
        allowPorts: [8080],
        maxBytes: 1,
        maxRedirects: 0,
        timeoutMs: 2,
        userAgent: 'u',
        search: { provider: 'brave', apiKeyEnv: 'KEY' },
      },
      { KEY: ' k ' },
    );
    expect(web).toMatchObject({ allowAddresses: ['10.0.0.0/8'], allowPorts: [8080], maxBytes: 1, maxRedirects: 0, timeoutMs: 2, userAgent: 'u' });
    expect(web.search?.name).toBe('brave');
    expect(webConfigOf({ search: { provider: 'searxng', endpoint: 'http://localhost:8888' } }, {}).search?.name).toBe('searxng');
  });
});
