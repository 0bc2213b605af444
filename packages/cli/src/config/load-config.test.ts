import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdPlaceholders } from '@toolwright/sandbox';
import { CONFIG_TEMPLATE } from '../commands/init-templates.js';
import { findConfigFile, loadConfigFile } from './load-config.js';

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-config-unit-'));
  temporary.push(dir);
  return dir;
}

function configFile(content: unknown): string {
  const file = path.join(tempDir(), 'toolwright.config.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** The message of the usage error `loadConfigFile` throws, with the file name shortened to `FILE`. */
function errorOf(content: unknown, env: NodeJS.ProcessEnv = {}): string {
  const file = configFile(content);
  try {
    loadConfigFile(file, env);
  } catch (error) {
    expect((error as { exitCode?: number }).exitCode).toBe(2);
    return (error as Error).message.split(file).join('FILE');
  }
  throw new Error('the config was accepted');
}

describe(loadConfigFile, () => {
  it('accepts the minimal file and every section', () => {
    expect(loadConfigFile(configFile({ shell: { allow: ['id'] } })).config).toEqual({ shell: { allow: ['id'] } });
    const full = {
      $schema: './node_modules/@toolwright/cli/toolwright.config.schema.json',
      workspace: { root: '.', shared: 'shared', public: 'public', protectedPaths: ['.git', '/secrets'] },
      shell: {
        backend: 'session',
        allow: ['python3', 'npm test'],
        defaultAllow: false,
        permit: ['redirection'],
        timeoutMs: 5000,
        maxOutputBytes: 1024,
        maxJobs: 2,
        maxSessions: 4,
        maxLength: 200,
        maxCommands: 4,
        passEnv: ['CI'],
      },
      web: {
        allowAddresses: ['10.1.0.0/16', '192.168.1.5'],
        allowPorts: [8080],
        maxBytes: 1000,
        maxRedirects: 0,
        timeoutMs: 1000,
        userAgent: 'x',
        search: { provider: 'brave', apiKeyEnv: 'BRAVE_KEY' },
      },
      vault: { root: 'vault' },
      policy: { default: 'ask', rules: [{ allow: 'file_read' }, { deny: 'file_delete', reason: 'no', match: ['a.txt'] }] },
      audit: { path: 'audit.jsonl', durability: 'batched', rotate: { maxBytes: 1048576, keep: 3 } },
      risk: 'autorun_none',
      maxOutputBytes: 4096,
      repeatedCalls: { threshold: 4, action: 'deny' },
      tools: { core: true, include: ['file_*'], exclude: ['file_delete'], perSession: ['Notebook', 'Tally'] },
    };
    expect(loadConfigFile(configFile(full), { BRAVE_KEY: 'k' }).config).toEqual(full);
    expect(loadConfigFile(configFile({ policy: 'policy.json', audit: 'none', repeatedCalls: false })).config.audit).toBe('none');
  });

  it('accepts the file toolwright init writes', () => {
    expect(() => loadConfigFile(configFile(CONFIG_TEMPLATE))).not.toThrow();
  });

  it.for([
    ['an unknown top-level key, with the nearest known one', { shel: {} }, "FILE: $.shel: unknown key 'shel'; did you mean 'shell'?"],
    ['an unknown nested key, with the nearest known one', { shell: { alow: ['id'] } }, "FILE: $.shell.alow: unknown key 'alow'; did you mean 'allow'?"],
    [
      'an unknown key with nothing near, listing the known ones',
      { vault: { root: 'v', zzzzzz: 1 } },
      "FILE: $.vault.zzzzzz: unknown key 'zzzzzz'; expected one of: root",
    ],
    [
      'an API key written into the file',
      { web: { search: { provider: 'brave', apiKey: 's3cret' } } },
      "FILE: $.web.search.apiKey: unknown key 'apiKey': the API key never goes in this file; put it in an environment variable and name that variable in 'apiKeyEnv'",
    ],
    ['a wrong type', { shell: { allow: 'id' } }, 'FILE: $.shell.allow: must be an array of strings (found "id")'],
    ['a wrong item type', { shell: { allow: ['id', 2] } }, 'FILE: $.shell.allow[1]: must be a string (found 2)'],
    ['a fraction where a whole number goes', { shell: { timeoutMs: 1.5 } }, 'FILE: $.shell.timeoutMs: must be an integer (found 1.5)'],
    ['a number below its minimum', { maxOutputBytes: 10 }, 'FILE: $.maxOutputBytes: must be >= 256 (found 10)'],
    ['a value outside an enum', { shell: { backend: 'sessions' } }, 'FILE: $.shell.backend: must be one of: "host", "session", "disabled" (found "sessions")'],
    ['a missing required key', { vault: {} }, 'FILE: $.vault.root: is required: a string'],
    ['a value that fits no alternative', { audit: 'nothing' }, 'FILE: $.audit: must be "none" or an object (found "nothing")'],
    ['a cache that is neither on, off nor a section', { cache: 'yes' }, 'FILE: $.cache: must be a boolean or an object (found "yes")'],
    ['a cache bound below its minimum', { cache: { maxBytes: 0 } }, 'FILE: $.cache.maxBytes: must be >= 1 (found 0)'],
    [
      'a bad value inside the alternative it was meant for',
      { policy: { rules: [{ allow: 'x', reasn: 'y' }] } },
      "FILE: $.policy.rules[0].reasn: unknown key 'reasn'; did you mean 'reason'?",
    ],
    [
      'a rule with no effect',
      { policy: { rules: [{ alow: 'x' }] } },
      'FILE: $.policy.rules[0]: must be an object with "allow" or an object with "ask" or an object with "deny" (found {"alow":"x"})',
    ],
    ['a port out of range', { web: { allowPorts: [80, 70000] } }, 'FILE: $.web.allowPorts[1]: must be a port number from 1 to 65535 (found 70000)'],
    [
      'an address that is no address',
      { web: { allowAddresses: ['intranet'] } },
      'FILE: $.web.allowAddresses[0]: must be an IP address or a CIDR range such as 10.0.0.0/8 (found "intranet")',
    ],
    ['a setting of another shell backend', { shell: { maxSessions: 3 } }, 'FILE: $.shell.maxSessions: applies to "backend": "session" only'],
    ['a sandbox mode that is none', { shell: { sandbox: 'on' } }, 'FILE: $.shell.sandbox: must be one of: "auto", "required", "off" (found "on")'],
    [
      'a relative readable path',
      { shell: { readablePaths: ['opt/node'] } },
      'FILE: $.shell.readablePaths[0]: must be an absolute directory (found "opt/node")',
    ],
    [
      'the whole disk as a readable path',
      { shell: { readablePaths: ['/'] } },
      'FILE: $.shell.readablePaths[0]: cannot be shown in the sandbox: it is the root directory (every file would be visible) (found "/")',
    ],
    [
      "the host's /etc as a readable path",
      { shell: { readablePaths: ['/etc/ssl'] } },
      'FILE: $.shell.readablePaths[0]: cannot be shown in the sandbox: it lies in /etc, which the sandbox makes itself (found "/etc/ssl")',
    ],
    [
      'a folder holding /tmp as a readable path',
      { shell: { readablePaths: ['/var'] } },
      'FILE: $.shell.readablePaths[0]: cannot be shown in the sandbox: it holds /var/tmp, which the sandbox makes itself (found "/var")',
    ],
    ['a limit below one', { shell: { limits: { cpuSeconds: 0 } } }, 'FILE: $.shell.limits.cpuSeconds: must be >= 1 (found 0)'],
    [
      'a sandbox setting of a disabled shell',
      { shell: { backend: 'disabled', sandbox: 'off' } },
      'FILE: $.shell.sandbox: has no effect with "backend": "disabled"; remove it or choose another backend',
    ],
    [
      'settings of a disabled shell',
      { shell: { backend: 'disabled', allow: ['id'] } },
      'FILE: $.shell.allow: has no effect with "backend": "disabled"; remove it or choose another backend',
    ],
    [
      'a searxng provider without its endpoint',
      { web: { search: { provider: 'searxng' } } },
      'FILE: $.web.search.endpoint: is required for the searxng provider: the URL of the instance',
    ],
    [
      'a brave provider without a key variable',
      { web: { search: { provider: 'brave' } } },
      'FILE: $.web.search.apiKeyEnv: is required for the brave provider: the name of the environment variable that holds the API key',
    ],
    [
      'a key variable that is not set',
      { web: { search: { provider: 'brave', apiKeyEnv: 'BRAVE_KEY' } } },
      'FILE: $.web.search.apiKeyEnv: names the environment variable BRAVE_KEY, which is not set or empty; set it to the brave API key',
    ],
    [
      'a key variable name that is no name',
      { web: { search: { provider: 'brave', apiKeyEnv: 'sk-12345' } } },
      'FILE: $.web.search.apiKeyEnv: must match pattern "^[A-Za-z_][A-Za-z0-9_]*$" (found "sk-12345")',
    ],
    ['per-session toolkits not given as a list', { tools: { perSession: 'Tally' } }, 'FILE: $.tools.perSession: must be an array of strings (found "Tally")'],
    ['a per-session toolkit that is no name', { tools: { perSession: ['Tally', 3] } }, 'FILE: $.tools.perSession[1]: must be a string (found 3)'],
    [
      'a per-session toolkit named twice',
      { tools: { perSession: ['Tally', 'Tally'] } },
      'FILE: $.tools.perSession: must NOT have duplicate items (items ## 1 and 0 are identical) (found ["Tally","Tally"])',
    ],
    ['a file that is not an object', [], 'FILE: $: must be an object (found [])'],
    ['an audit rotation below the smallest file', { audit: { rotate: { maxBytes: 100 } } }, 'FILE: $.audit.rotate.maxBytes: must be >= 1024 (found 100)'],
    ['an audit rotation without its size', { audit: { rotate: { keep: 2 } } }, 'FILE: $.audit.rotate.maxBytes: is required: an integer'],
    ['an audit rotation keeping no file', { audit: { rotate: { maxBytes: 4096, keep: 0 } } }, 'FILE: $.audit.rotate.keep: must be >= 1 (found 0)'],
    ['an audit rotation size as text', { audit: { rotate: { maxBytes: '10MB' } } }, 'FILE: $.audit.rotate.maxBytes: must be an integer (found "10MB")'],
    ['an unknown audit rotation key', { audit: { rotate: { maxBytes: 4096, kep: 2 } } }, "FILE: $.audit.rotate.kep: unknown key 'kep'; did you mean 'keep'?"],
  ] as const)('reports %s', ([, content, message]) => {
    expect(errorOf(content)).toBe(message);
  });

  it('reports every problem, one line each', () => {
    expect(errorOf({ shel: {}, risk: 'yolo' }).split('\n')).toEqual([
      "FILE: $.shel: unknown key 'shel'; did you mean 'shell'?",
      'FILE: $.risk: must be one of: "autorun_all", "autorun_no_public", "autorun_none" (found "yolo")',
    ]);
  });

  it('reports JSON that does not parse with the file and where it stopped', () => {
    expect(errorOf('{ "shell": { "allow": ["id"], } }')).toMatch(/^FILE: \$: is not valid JSON: .*line 1 column 31/);
  });

  // Found by a twelfth pass: a host killed outright left the sandbox's empty placeholder for a missing config file,
  // and every later `toolwright call` there was refused on it. It stands for no file.
  it("takes the sandbox's placeholder for a missing config file as no file, and an empty file of the user's as empty", async () => {
    const dir = tempDir();
    const file = path.join(dir, 'toolwright.config.json');
    const held = holdPlaceholders([{ path: file, kind: 'file' }]);
    try {
      expect(held.placeholders).toEqual([file]);
      expect(findConfigFile({ cwd: dir })).toBeUndefined();
      expect(() => findConfigFile({ cwd: dir, config: 'toolwright.config.json' })).toThrow('--config toolwright.config.json: no such file.');
    } finally {
      await held.release();
    }
    fs.writeFileSync(file, '');
    expect(findConfigFile({ cwd: dir })).toBe(file);
  });

  it('says where an empty file comes from and what to do', () => {
    for (const empty of ['', '  \n'])
      expect(errorOf(empty)).toBe(
        "FILE is empty. Toolwright's shell sandbox holds a missing toolwright.config.json with an empty placeholder while a command runs, and leaves it behind when it is killed outright; delete the file, or write {} in it.",
      );
  });
});

describe(findConfigFile, () => {
  it('takes --config, else the current directory, else the workspace, else none', () => {
    const cwd = tempDir();
    const workspace = tempDir();
    expect(findConfigFile({ cwd })).toBeUndefined();
    fs.writeFileSync(path.join(workspace, 'toolwright.config.json'), '{}');
    expect(findConfigFile({ cwd, workspace })).toBe(path.join(workspace, 'toolwright.config.json'));
    fs.writeFileSync(path.join(cwd, 'toolwright.config.json'), '{}');
    expect(findConfigFile({ cwd, workspace })).toBe(path.join(cwd, 'toolwright.config.json'));
    fs.writeFileSync(path.join(cwd, 'other.json'), '{}');
    expect(findConfigFile({ cwd, workspace, config: 'other.json' })).toBe(path.join(cwd, 'other.json'));
  });

  it('refuses a --config file that does not exist', () => {
    expect(() => findConfigFile({ cwd: tempDir(), config: 'missing.json' })).toThrow('--config missing.json: no such file.');
  });
});
