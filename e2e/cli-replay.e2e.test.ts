import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, run, toolwright } from './support/run.js';
import { PROJECT_OPTIONS } from './support/project-options.js';

const TOOLS = `/**
 * Adds two numbers.
 * @tool
 * @determinism pure
 * @tier read-only
 * @param a First addend.
 * @param b Second addend.
 */
export async function addNumbers(a: number, b: number): Promise<{ sum: number }> {
  return { sum: a + b };
}

/**
 * Says when it is.
 * @tool
 * @tier read-only
 * @param zone A time zone.
 */
export async function clock(zone: string): Promise<string> {
  return \`\${zone} \${Date.now()}\`;
}
`;

/** A project inside e2e/ (so @toolwright/* resolve), with a tsconfig that also checks test/. */
const dir = path.join(__dirname, `.tmp-replay-${process.pid}`);
const log = path.join(dir, '.toolwright', 'audit.jsonl');
const tsc = (project: string) => run(process.execPath, [path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project, '--pretty', 'false'], dir);
const json = (text: string) => JSON.parse(text) as Record<string, any>;
// The output cache lives in the user's cache folder (never the workspace): this file's own, inherited by the CLI it runs.
const cacheHome = path.join(dir, 'xdg-cache');
process.env.XDG_CACHE_HOME = cacheHome;
/** The cache entries the CLI wrote: `<XDG_CACHE_HOME>/toolwright/outputs/<workspace's folder>/<key>.json`. */
const cacheEntries = () =>
  fs.existsSync(path.join(cacheHome, 'toolwright', 'outputs'))
    ? fs
        .readdirSync(path.join(cacheHome, 'toolwright', 'outputs'))
        .flatMap((folder) => fs.readdirSync(path.join(cacheHome, 'toolwright', 'outputs', folder)).filter((name) => name.endsWith('.json')))
    : [];

beforeAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'first\nsecond\n');
  fs.writeFileSync(path.join(dir, 'src', 'tools.ts'), TOOLS);
  const compilerOptions = { ...PROJECT_OPTIONS, types: [], outDir: 'dist' };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src'] }));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.test.json'),
    JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true, rootDir: '.' }, include: ['src', 'test'] }),
  );
  expect(toolwright(['build', '-p', 'tsconfig.json'], dir).status).toBe(0);
  const call = (tool: string, args: string) => toolwright(['call', tool, '--args', args, '-p', 'tsconfig.json', '--workspace', '.'], dir);
  expect(call('add_numbers', '{"a":2,"b":3}').status).toBe(0);
  expect(call('add_numbers', '{"a":2,"b":"three"}').status).toBe(1); // refused before validation: not a recorded call
  expect(call('clock', '{"zone":"UTC"}').status).toBe(0);
  expect(call('file_read', '{"path":"notes.txt"}').status).toBe(0);
}, 180_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Rewrites the tool source (tsconfig.test.json checks it as source: no build needed). */
function writeTools(edit: (source: string) => string): void {
  fs.writeFileSync(path.join(dir, 'src', 'tools.ts'), edit(TOOLS));
}

/** The source the project was last built from (beforeAll builds TOOLS). */
let built = TOOLS;

/** Rewrites the tool source and builds the project, unless its last build was of that very source. */
function changeTools(edit: (source: string) => string): void {
  writeTools(edit);
  if (edit(TOOLS) === built) return;
  expect(toolwright(['build', '-p', 'tsconfig.json'], dir).status).toBe(0);
  built = edit(TOOLS);
}

describe('toolwright replay --out', () => {
  it('writes the recorded calls as a module that type-checks, and fails tsc at a call its tool no longer takes', () => {
    writeTools((source) => source);
    const written = toolwright(['replay', log, '--out', 'test/recorded-calls.ts', '-p', 'tsconfig.json'], dir);
    expect(written.stderr).toContain('3 recorded calls of 3 tools written to test/recorded-calls.ts');
    expect(written.stderr).toContain('1 call was refused before the arguments were validated');
    expect(written.status).toBe(0);
    const module = fs.readFileSync(path.join(dir, 'test', 'recorded-calls.ts'), 'utf8');
    expect(module).toContain('import type { FileReadTool as FileReadTool_2_0 } from "@toolwright/core-tools";');
    expect(module).toMatch(
      /export const call_\d+: RecordedCall<"add_numbers"> = \{ seq: \d+, callId: "cli_\w+", tool: "add_numbers", args: \{"a":2,"b":3\}, outcome: "completed"/,
    );
    expect(tsc('tsconfig.test.json').output).toBe('');

    const lines = module.split('\n');
    const addLine = lines.findIndex((line) => line.includes('tool: "add_numbers"')) + 1;
    const callId = /callId: "([^"]+)"/.exec(lines[addLine - 1]!)![1]!;
    for (const signature of ['a: number, b: string', 'a: number, b: number, scale: number', 'a: number']) {
      writeTools((source) => source.replace('a: number, b: number', signature).replace('a + b', '0'));
      const checked = tsc('tsconfig.test.json');
      expect(checked.status, signature).not.toBe(0);
      // The error is at the recorded call's own line, which names its call id.
      expect(checked.stdout, signature).toContain(`test/recorded-calls.ts(${addLine},`);
      expect(lines[addLine - 1]).toContain(callId);
    }
    writeTools((source) => source.replace('a: number, b: number', 'a: number, b: number, scale?: number'));
    expect(tsc('tsconfig.test.json').output).toBe(''); // an optional parameter added still takes the call
    writeTools((source) => source); // the built project is the original's
  }, 300_000);

  it('names the tools it has no signature for, and reads no bad log as calls', () => {
    const withoutProject = toolwright(['replay', log, '--out', 'test/other.ts'], dir);
    expect(withoutProject.status).toBe(1);
    expect(withoutProject.stderr).toMatch(/calls of tools with no signature to type them by: add_numbers \(seq \d+\), clock \(seq \d+\)\. Pass --project/);
    expect(fs.existsSync(path.join(dir, 'test', 'other.ts'))).toBe(false);

    const missing = toolwright(['replay', 'nowhere.jsonl', '--out', 'test/other.ts'], dir);
    expect(missing).toMatchObject({ status: 2 });
    expect(missing.stderr).toContain('Cannot read the audit log nowhere.jsonl: no such file.');

    fs.writeFileSync(
      path.join(dir, 'bad.jsonl'),
      `${fs.readFileSync(log, 'utf8').split('\n')[0]}\nnot json\n{"seq":9,"type":"ToolCallCompleted","callId":"x"}\n`,
    );
    const corrupt = toolwright(['replay', 'bad.jsonl', '--run'], dir);
    expect(corrupt.status).toBe(1);
    expect(corrupt.stderr).toContain('bad.jsonl is corrupt at line 2: not valid JSON');

    fs.writeFileSync(path.join(dir, 'odd.jsonl'), '{"seq":1,"type":"ToolCallRequested","callId":"c1","tool":"clock","args":"zone","argsHash":"00"}\n');
    const odd = toolwright(['replay', 'odd.jsonl', '--out', 'test/other.ts'], dir);
    expect(odd.status).toBe(1);
    expect(odd.stderr).toContain('odd.jsonl: record seq 1: the ToolCallRequested record of c1 holds no argument object');

    expect(toolwright(['replay', log], dir)).toMatchObject({ status: 2, stderr: expect.stringContaining('needs either --out <file.ts> or --run') });
  }, 120_000);
});

describe('toolwright replay --run', () => {
  it('re-runs pure calls through the executor and passes when the outputs hash the same; skips other levels, saying so', () => {
    changeTools((source) => source);
    const replayed = toolwright(['replay', log, '--run', '-p', 'tsconfig.json', '--workspace', '.'], dir);
    expect(replayed.stdout).toMatch(/^ok {5}seq \d+ add_numbers \(cli_\w+\)$/m);
    expect(replayed.stdout).toContain("skip   1 call of clock: its determinism is 'maybe' (only pure and deterministic tools are replayed)");
    expect(replayed.stdout).toMatch(/^ok {5}seq \d+ file_read \(cli_\w+\)$/m); // a core tool, deterministic
    expect(replayed.stdout).toContain('2 matched, 0 differ, 0 failed');
    expect(replayed.status).toBe(0);
    // The replay is audited like any call, in its own log.
    const records = fs
      .readFileSync(path.join(dir, '.toolwright', 'audit-replay.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(json);
    expect(records.filter((record) => record.type === 'ToolCallCompleted')).toHaveLength(2);
    expect(records.filter((record) => record.type === 'PolicyDecision')).toHaveLength(2);
    expect(records.every((record) => String(record.callId).startsWith('replay_'))).toBe(true);
  }, 120_000);

  it('prints a diff and exits 1 when a pure tool now answers differently', () => {
    changeTools((source) => source.replace('a + b', 'a + b + 1'));
    const replayed = toolwright(['replay', log, '--run', '-p', 'tsconfig.json', '--workspace', '.', '--audit', 'none'], dir);
    expect(replayed.status).toBe(1);
    expect(replayed.stdout).toMatch(/^DIFFER seq \d+ add_numbers \(cli_\w+\): output sha-256 [0-9a-f]{64}, recorded [0-9a-f]{64}$/m);
    expect(replayed.stdout).toContain('-  "sum": 5\n+  "sum": 6');
    expect(replayed.stdout).toContain('1 matched, 1 differ, 0 failed');
  }, 120_000);

  it('never bypasses the policy: a denied call is reported, not replayed', () => {
    changeTools((source) => source);
    fs.writeFileSync(path.join(dir, 'deny.json'), JSON.stringify({ rules: [{ deny: 'add_numbers', reason: 'not in replays' }], default: 'allow' }));
    const replayed = toolwright(['replay', log, '--run', '-p', 'tsconfig.json', '--workspace', '.', '--policy', 'deny.json', '--audit', 'none'], dir);
    expect(replayed.status).toBe(1);
    expect(replayed.stdout).toMatch(/^FAIL {3}seq \d+ add_numbers \(cli_\w+\): the replay ended as policy_denied: /m);
  }, 120_000);
});

describe('toolwright call --cache', () => {
  it("answers a pure tool's repeated call from the user's cache (not the workspace's), and audits the hit", () => {
    changeTools((source) => source);
    const call = () => json(toolwright(['call', 'add_numbers', '--args', '{"a":20,"b":22}', '-p', 'tsconfig.json', '--workspace', '.', '--cache'], dir).stdout);
    const first = call();
    const second = call();
    expect(first).toMatchObject({ status: 'completed', output: { sum: 42 } });
    expect(first).not.toHaveProperty('cacheHit');
    expect(second).toMatchObject({ status: 'completed', output: { sum: 42 }, cacheHit: 'disk', outputHash: first.outputHash });
    expect(cacheEntries()).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, '.toolwright', 'cache'))).toBe(false);
    const completed = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map(json)
      .filter((record) => record.type === 'ToolCallCompleted');
    expect(completed.at(-1)).toMatchObject({ callId: second.callId, cacheHit: 'disk' });
  }, 120_000);
});

describe('toolwright replay --run and the output cache', () => {
  it('never answers from the cache a config turns on: the pure tool really runs again', () => {
    changeTools((source) => source);
    fs.writeFileSync(path.join(dir, 'cache.json'), JSON.stringify({ cache: true }));
    const call = () =>
      json(toolwright(['call', 'add_numbers', '--args', '{"a":7,"b":8}', '-p', 'tsconfig.json', '--workspace', '.', '--config', 'cache.json'], dir).stdout);
    expect(call()).not.toHaveProperty('cacheHit');
    expect(call()).toMatchObject({ output: { sum: 15 }, cacheHit: 'disk' }); // the config's cache is on, and holds the call
    const replayLog = path.join(dir, 'replay-cache.jsonl');
    const replayed = toolwright(['replay', log, '--run', '-p', 'tsconfig.json', '--workspace', '.', '--config', 'cache.json', '--audit', replayLog], dir);
    expect(replayed.stdout).toMatch(/^ok {5}seq \d+ add_numbers \(cli_\w+\)$/m);
    expect(replayed.status).toBe(0);
    const completed = fs
      .readFileSync(replayLog, 'utf8')
      .trim()
      .split('\n')
      .map(json)
      .filter((record) => record.type === 'ToolCallCompleted');
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.filter((record) => 'cacheHit' in record)).toEqual([]);
  }, 120_000);
});

describe('toolwright replay --run and the core file tools', () => {
  const world = path.join(__dirname, `.tmp-replay-world-${process.pid}`);
  afterAll(() => fs.rmSync(world, { recursive: true, force: true }));

  it('skips a recorded file_write, leaving the file as its user left it, and still replays a file_read', () => {
    fs.rmSync(world, { recursive: true, force: true });
    fs.mkdirSync(world, { recursive: true });
    fs.writeFileSync(path.join(world, 'package.json'), '{ "private": true }\n');
    fs.writeFileSync(path.join(world, 'readme.txt'), 'stays\n');
    const call = (tool: string, args: object) => toolwright(['call', tool, '--args', JSON.stringify(args), '--workspace', '.'], world);
    expect(call('file_write', { path: 'mine.txt', content: 'old\n' }).status).toBe(0);
    expect(call('file_read', { path: 'readme.txt' }).status).toBe(0);
    fs.writeFileSync(path.join(world, 'mine.txt'), 'edited by its user\n');
    const replayed = toolwright(['replay', path.join('.toolwright', 'audit.jsonl'), '--run', '--workspace', '.'], world);
    expect(replayed.stdout).toContain("skip   1 call of file_write: changes the world (its tier is 'side-effecting'; only read-only tools are re-run)");
    expect(replayed.stdout).toMatch(/^ok {5}seq \d+ file_read \(cli_\w+\)$/m);
    expect(replayed.stdout).toContain('1 matched, 0 differ, 0 failed');
    expect(replayed.status).toBe(0);
    expect(fs.readFileSync(path.join(world, 'mine.txt'), 'utf8')).toBe('edited by its user\n');
  }, 120_000);
});
