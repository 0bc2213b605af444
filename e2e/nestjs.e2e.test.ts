import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, run, toolwright, tspc } from './support/run.js';
import { copyProject } from './support/temp-project.js';

// The real @nestjs/core, @nestjs/common and reflect-metadata (examples/nestjs/package.json pins them),
// the example compiled with tspc and the Toolwright transformer under experimentalDecorators.
describe('examples/nestjs: @tool() providers found by DiscoveryService through reflect-metadata', () => {
  let dir: string;
  beforeAll(() => {
    dir = copyProject('../examples/nestjs', 'nestjs');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('compiles with tspc (legacy decorators, emitDecoratorMetadata) with no diagnostics', () => {
    const result = tspc(['-p', dir], dir);
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });

  it('exposes each declaration on the prototype under toolwright:tool, the same object the method carries', () => {
    const script = `
      import 'reflect-metadata';
      import { getToolDeclaration, TOOL_METADATA_KEY } from '@toolwright/tool';
      import { NotesTools } from './dist/notes/notes-tools.js';
      const proto = NotesTools.prototype;
      const of = (name) => Reflect.getMetadata(TOOL_METADATA_KEY, proto, name);
      console.log(JSON.stringify({
        key: TOOL_METADATA_KEY,
        addNote: of('addNote'),
        same: of('addNote') === getToolDeclaration(proto.addNote) && of('searchNotes') === getToolDeclaration(proto.searchNotes),
        count: of('count') ?? null,
        keys: Reflect.getMetadataKeys(proto, 'searchNotes').filter((k) => k.startsWith('toolwright')),
      }));`;
    const result = run(process.execPath, ['--input-type=module', '-e', script], dir);
    expect(result.status, result.output).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      key: 'toolwright:tool',
      addNote: {
        name: 'add_note',
        description: 'Saves a note and returns it with its id.',
        parameters: { required: ['title', 'body'], properties: { title: { type: 'string', description: 'A short title.' } } },
        metadata: { tier: 'side-effecting' },
        source: { form: 'decorator', exportName: 'NotesTools.prototype.addNote' },
      },
      same: true,
      count: null,
      keys: ['toolwright:tool'],
    });
  });

  it('the application registers every @tool() provider of every module, bound to its injected instance, and runs calls through the executor', () => {
    const result = run(process.execPath, ['dist/main.js'], dir);
    expect(result.status, result.output).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.discovered).toEqual([
      { provider: 'NotesTools', method: 'addNote', tool: 'add_note' },
      { provider: 'NotesTools', method: 'searchNotes', tool: 'search_notes' },
      { provider: 'ClockTools', method: 'weekday', tool: 'weekday' },
    ]);
    expect(report.declarations.map((d: { name: string }) => d.name)).toEqual(['add_note', 'search_notes', 'weekday']);
    expect(report.declarations[1].parameters.properties.limit).toEqual({ type: 'integer', description: 'At most this many notes.', default: 10 });
    expect(report.results).toEqual([
      { call: 'add_note', status: 'completed', content: '{"id":1,"title":"Groceries","body":"Buy oranges"}' },
      // The note added through one tool is found through another: both use the NotesStore Nest injected.
      { call: 'search_notes', status: 'completed', content: '[{"id":1,"title":"Groceries","body":"Buy oranges"}]' },
      { call: 'weekday', status: 'completed', content: 'Monday' },
      {
        call: 'search_notes',
        status: 'error',
        code: 'invalid_arguments',
        content: expect.stringContaining("missing required field 'text'"),
      },
    ]);
  });

  it('stops at start, naming the method, when a provider was compiled without the transformer', () => {
    const plain = run(
      process.execPath,
      [path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir, '--outDir', path.join(dir, 'dist-plain')],
      dir,
    );
    expect(plain.output).toBe('');
    const result = run(process.execPath, ['dist-plain/main.js'], dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "NotesTools.addNote is marked @tool() but exposes no 'toolwright:tool' metadata: compile it with the Toolwright transformer (tspc)",
    );
  });

  it('builds the same with toolwright build (no ts-patch)', () => {
    fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
    const build = toolwright(['build', '-p', 'tsconfig.json'], dir);
    expect(build.output).toBe('');
    expect(build.status).toBe(0);
    const result = run(process.execPath, ['dist/main.js'], dir);
    expect(result.status, result.output).toBe(0);
    expect(JSON.parse(result.stdout).discovered.map((d: { tool: string }) => d.tool)).toEqual(['add_note', 'search_notes', 'weekday']);
  });

  it('type-checks @tool() methods under experimentalDecorators: a method that is not async is a compile error', () => {
    fs.writeFileSync(
      path.join(dir, 'src', 'sync-tool.ts'),
      [
        "import { tool } from '@toolwright/tool';",
        'export class SyncTools {',
        '  @tool()',
        '  now(): string { return new Date().toISOString(); }',
        '}',
        '',
      ].join('\n'),
    );
    const result = tspc(['-p', dir, '--noEmit'], dir);
    fs.rmSync(path.join(dir, 'src', 'sync-tool.ts'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('src/sync-tool.ts(3,4): error TS1241: Unable to resolve signature of method decorator');
  });
});

// Standard (TC39) decorators, as the basic e2e project uses them: the decorator does not see its class,
// so the metadata appears on the prototype when the first instance is constructed.
describe('standard decorators with reflect-metadata', () => {
  let dir: string;
  beforeAll(() => {
    dir = copyProject('basic-project', 'metadata-standard');
    const result = tspc(['-p', dir], dir);
    if (result.status !== 0) throw new Error(result.output);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const read = (preload: string) => `${preload}
    const { TOOL_METADATA_KEY, getToolDeclaration } = require('@toolwright/tool');
    const { GreetingKit } = require('./dist/kit.js');
    const of = () => typeof Reflect.getMetadata === 'function' ? Reflect.getMetadata(TOOL_METADATA_KEY, GreetingKit.prototype, 'greet') ?? null : 'no metadata API';
    const before = of();
    new GreetingKit('Hi');
    const after = of();
    console.log(JSON.stringify({ before, after: after?.name ?? after, same: after === getToolDeclaration(GreetingKit.prototype.greet) }));`;

  it('defines the declaration on the prototype once an instance exists', () => {
    const result = run(process.execPath, ['-e', read("require('reflect-metadata');")], dir);
    expect(result.status, result.output).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ before: null, after: 'greet', same: true });
  });

  it('works unchanged, defining nothing, when reflect-metadata is not loaded', () => {
    const result = run(process.execPath, ['-e', read('')], dir);
    expect(result.status, result.output).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ before: 'no metadata API', after: 'no metadata API', same: false });
  });
});
