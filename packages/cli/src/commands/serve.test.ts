import { describe, expect, it } from 'vitest';
import { deferGlobsOf, httpServeOptions, stateKeyOf, type ServeFlags } from './serve.js';

const flags = (extra: Partial<ServeFlags> = {}): ServeFlags => ({
  mcp: 'http',
  port: '0',
  host: '127.0.0.1',
  sessions: false,
  'insecure-no-auth': false,
  ...extra,
});

describe(httpServeOptions, () => {
  it('maps the flags to the server options, reading the token from the named variable', () => {
    const options = httpServeOptions(
      flags({
        port: '8080',
        sessions: true,
        'allow-host': ['a.example', 'b.example:8443'],
        'allow-origin': ['https://app.example'],
        'auth-token-env': 'TOKEN',
        'session-idle-timeout': '90',
        'max-sessions': '5',
        'max-body-bytes': '1024',
        'request-timeout': '2.5',
      }),
      { TOKEN: '  tok-123\n' },
    );
    expect(options).toEqual({
      port: 8080,
      host: '127.0.0.1',
      sessions: true,
      allowedHosts: ['a.example', 'b.example:8443'],
      allowedOrigins: ['https://app.example'],
      bearerToken: 'tok-123',
      sessionIdleTimeoutMs: 90_000,
      maxSessions: 5,
      maxBodyBytes: 1024,
      requestTimeoutMs: 2500,
    });
  });

  it.for([
    [{ 'auth-token-env': 'MISSING' }, /MISSING is not set or empty/],
    [{ port: '70000' }, /--port must be a port number/],
    [{ port: '-1' }, /--port must be a port number/],
    [{ 'max-sessions': '2.5' }, /--max-sessions takes a positive whole number/],
    [{ 'session-idle-timeout': '0' }, /--session-idle-timeout takes a positive number of seconds/],
    [{ 'request-timeout': '1e3' }, /--request-timeout takes a positive number/],
    [{ mcp: 'stdio', 'allow-origin': ['https://x.example'] }, /--allow-origin applies to --mcp http only/],
    [{ mcp: 'stdio', 'insecure-no-auth': true }, /--insecure-no-auth applies to --mcp http only/],
  ] as const)('refuses %j as a usage error', ([extra, message]) => {
    expect(() => httpServeOptions(flags(extra as Partial<ServeFlags>), {})).toThrow(message);
  });
});

describe(stateKeyOf, () => {
  it('reads the key that seals 2026-07-28 answers from the named variable, at least 32 bytes of it', () => {
    const key = 'k'.repeat(32);
    expect(stateKeyOf({ 'state-key-env': 'TW_STATE' }, { TW_STATE: key })).toBe(key);
    expect(stateKeyOf({})).toBeUndefined();
    expect(() => stateKeyOf({ 'state-key-env': 'TW_STATE' }, { TW_STATE: 'short' })).toThrow('at least 32 bytes (it holds 5)');
    expect(() => stateKeyOf({ 'state-key-env': 'TW_STATE' }, {})).toThrow('--state-key-env TW_STATE');
  });
});

describe(deferGlobsOf, () => {
  it('takes repeated flags and comma lists, keeping the commas of a brace glob', () => {
    expect(deferGlobsOf({ defer: ['github_*, jira_*', '{notion,linear}_*', 'web_fetch'] })).toEqual(['github_*', 'jira_*', '{notion,linear}_*', 'web_fetch']);
    expect(deferGlobsOf({})).toBeUndefined();
  });

  it.for([
    [['github_*,'], /--defer takes globs of tool names .* not an empty one/],
    [[''], /--defer takes globs of tool names/],
    [['file read'], /--defer: "file read" is not a glob of tool names/],
    [['github/*'], /--defer: "github\/\*" is not a glob of tool names/],
  ] as const)('refuses %j as a usage error', ([defer, message]) => {
    expect(() => deferGlobsOf({ defer: [...defer] })).toThrow(message);
  });
});
