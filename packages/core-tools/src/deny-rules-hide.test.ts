// The class, not the instance: for every kind of deny pattern, no read-ish tool — file_read, file_list,
// glob, file_search with either engine, the shell — ever returns a byte of a file the pattern hides.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPolicy, ToolExecutor, type ToolCallResult } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { coreToolsRiskLevels, registerCoreTools } from './core-tools.js';
import type { CoreToolsEnvironment } from './environment.js';
import { coreToolsPathResolvers } from './path-resolvers.js';
import { findRipgrep } from './search/ripgrep-search.js';
import { WorkspacePolicy } from './workspace/workspace-policy.js';

const MARKER = `TWMARK-${crypto.randomBytes(6).toString('hex')}`;

/** A deny pattern and the files it hides (each holds the marker); `dir` is a hidden directory to list and search. */
const CASES = [
  { name: 'a directory', pattern: 'secrets/**', files: ['secrets/prod.key', 'secrets/deep/api.txt', 'secrets/.env.prod'], dir: 'secrets' },
  { name: 'a bare directory name', pattern: 'vault', files: ['vault/x.json', 'vault/in/y.yaml'], dir: 'vault' },
  { name: 'a nested directory', pattern: 'config/prod/**', files: ['config/prod/db.env', 'config/prod/tls/cert.pem'], dir: 'config/prod' },
  { name: 'files by extension at any depth', pattern: '**/*.key', files: ['top.key', 'a/b/server.key', 'a/.hidden.key'], dir: undefined },
  { name: 'one file', pattern: 'deploy/token.txt', files: ['deploy/token.txt'], dir: undefined },
] as const;

const ORDINARY: Record<string, string> = {
  'src/app.ts': 'export const API_KEY = process.env.API_KEY; // TWMARK is not here\n',
  'README.md': '# app\n',
  'a/b/notes.md': 'notes\n',
  'config/dev.env': 'DEBUG=1\n',
  'deploy/run.sh': 'echo deploy\n',
};

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10 })));

/**
 * The case's workspace, and `run`: one call through the executor — with the deny rule as policy, and
 * the workspace hiding its pattern as the CLI sets it up — for file_search once per search engine (built-in,
 * ripgrep); the engine is file_search's alone (`CoreToolsEnvironment.ripgrep`), so every other tool runs once.
 */
function plant(kase: (typeof CASES)[number]): { root: string; run: (tool: string, args: Record<string, unknown>) => Promise<ToolCallResult[]> } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-deny-')));
  temporary.push(root);
  const write = (relative: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  };
  for (const [relative, text] of Object.entries(ORDINARY)) write(relative, text);
  // Many lines, the marker on each: a paged or partial read shows it at once.
  for (const file of kase.files) write(file, `API_KEY=${MARKER}\n`.repeat(50));
  fs.symlinkSync(kase.files[0], path.join(root, 'link-to-secret'));
  const executors = [false, undefined].map((ripgrep) => {
    const env: CoreToolsEnvironment = { workspace: new WorkspacePolicy({ root, deniedPaths: [kase.pattern] }), ...(ripgrep === false ? { ripgrep } : {}) };
    const registry = new ToolRegistry();
    registerCoreTools(registry, env);
    const policy = loadPolicy({ rules: [{ deny: `*(${kase.pattern})` }] }, (name) => registry.get(name)?.declaration);
    const executor = new ToolExecutor({
      registry,
      policy,
      riskLevel: coreToolsRiskLevels(env),
      pathResolvers: coreToolsPathResolvers(env),
      approve: async () => ({ kind: 'once' }),
      doomLoop: false,
    });
    return executor;
  });
  let id = 0;
  return {
    root,
    run: async (tool, args) => {
      const results: ToolCallResult[] = [];
      for (const executor of tool === 'file_search' ? executors : executors.slice(0, 1))
        results.push(await executor.executeToolCall({ id: `c${id++}`, name: tool, arguments: args }));
      return results;
    },
  };
}

/** Every read-ish call a model could make to reach the hidden files, by name or by scanning around them. */
function readingCalls(kase: (typeof CASES)[number]): [string, Record<string, unknown>][] {
  const dirs = new Set<string>(['.']);
  for (const file of kase.files) for (let d = path.posix.dirname(file); d !== '.'; d = path.posix.dirname(d)) dirs.add(d);
  const calls: [string, Record<string, unknown>][] = [];
  for (const file of [...kase.files, 'link-to-secret']) {
    calls.push(['file_read', { path: file }], ['file_read', { path: `./${file}` }], ['shell_exec', { command: `cat ${file}` }]);
    calls.push(['shell_exec', { command: `head -c 100000 ${file}` }], ['shell_exec', { command: `grep -n API ${file}` }]);
  }
  for (const dir of dirs) {
    calls.push(['file_list', { path: dir, depth: 20 }], ['glob', { pattern: '**', path: dir }], ['glob', { pattern: '**/*', path: dir }]);
    calls.push(['file_search', { pattern: 'TWMARK', path: dir }], ['file_search', { pattern: MARKER, path: dir, literal: true, context: 3 }]);
    calls.push(
      ['shell_exec', { command: `ls -laR ${dir}` }],
      ['shell_exec', { command: `grep -r TWMARK ${dir}` }],
      ['shell_exec', { command: `rg TWMARK ${dir}` }],
    );
    calls.push(['shell_exec', { command: `find ${dir} -type f` }], ['shell_exec', { command: `cat ${dir === '.' ? '' : `${dir}/`}*` }]);
    calls.push(['shell_exec', { command: `cp -r ${dir} copied-${calls.length}` }], ['shell_exec', { command: `du -a ${dir}` }]);
  }
  calls.push(['shell_exec', { command: 'grep -r API_KEY' }], ['shell_exec', { command: 'grep -rn API_KEY .' }], ['shell_exec', { command: 'rg API_KEY' }]);
  calls.push(['shell_exec', { command: 'rg --hidden -uu TWMARK' }], ['shell_exec', { command: 'cat */* */*/* */*/*/*' }], ['shell_exec', { command: 'find' }]);
  calls.push(['shell_exec', { command: 'tree -a' }], ['shell_exec', { command: 'ls -R' }], ['shell_exec', { command: 'grep -r -e TWMARK --include=* .' }]);
  if (kase.dir) calls.push(['shell_exec', { command: `cd ${kase.dir} && cat *` }], ['file_delete', { path: kase.dir, recursive: true }]);
  return calls;
}

/** Globs and regexes a model might send to sweep the tree; each would match the hidden files if they were listed. */
const GLOBS = fc.constantFrom(
  '**',
  '**/*',
  '*',
  '**/*.key',
  '**/*.{key,env,pem,txt,json,yaml}',
  'secrets/**',
  '*/**',
  '**/prod*',
  '**/.*',
  '{secrets,vault,config}/**/*',
);
const REGEXES = fc.constantFrom('TWMARK', 'TWMARK-[0-9a-f]+', '.', '.*', 'API_KEY=\\S+', '^API', '[A-Z]{6}-', '(?:T|X)WMARK');

describe('a deny rule on a path hides it from every tool', () => {
  it.for(CASES)('$name ($pattern): no read-ish call returns the marker', { timeout: 120_000 }, async (kase) => {
    const { root, run } = plant(kase);
    for (const [tool, args] of readingCalls(kase)) {
      const result = await run(tool, args);
      expect(JSON.stringify(result), `${tool} ${JSON.stringify(args)}`).not.toContain(MARKER);
    }
    for (const file of kase.files) expect(fs.readFileSync(path.join(root, file), 'utf8'), file).toContain(MARKER);
    // Not vacuous: the same tools still read what is not hidden, with both engines.
    const searches = await run('file_search', { pattern: 'API_KEY', path: '.' });
    expect(
      searches.map((r) => [r.content.includes('src/app.ts'), r.status === 'completed' ? (r.output as { engine?: string } | undefined)?.engine : undefined]),
    ).toEqual([
      [true, 'builtin'],
      [true, findRipgrep() ? 'ripgrep' : 'builtin'],
    ]);
    expect((await run('shell_exec', { command: 'grep -rn API_KEY src' }))[0]!.content).toContain('src/app.ts');
    expect((await run('file_read', { path: 'src/app.ts' }))[0]!.status).toBe('completed');
  });

  it.for(CASES)('$name ($pattern): no generated glob or search pattern reveals the marker (property)', { timeout: 120_000 }, async (kase) => {
    const { run } = plant(kase);
    await fc.assert(
      fc.asyncProperty(GLOBS, REGEXES, fc.constantFrom('.', 'a', 'config', 'deploy'), fc.boolean(), async (glob, regex, dir, byInclude) => {
        for (const [tool, args] of [
          ['glob', { pattern: glob, path: dir }],
          ['file_search', { pattern: regex, path: dir, ...(byInclude ? { include: [glob] } : {}), caseMode: 'insensitive' }],
          ['shell_exec', { command: `grep -rE '${regex}' ${dir}` }],
          ['shell_exec', { command: `rg -e '${regex}' -g '${glob}' ${dir}` }],
        ] as const) {
          const result = await run(tool, args);
          expect(JSON.stringify(result), `${tool} ${JSON.stringify(args)}`).not.toContain(MARKER);
        }
      }),
      { numRuns: 25 },
    );
  });
});
