import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, tspc } from './support/run.js';

const BASIC = path.join(__dirname, 'basic-project');
const BROKEN = path.join(__dirname, 'broken-project');

/** Declarations read in a plain Node process from the built output, as a user's program loads it. */
export function readDeclarations(dir: string, specs: string[]): Record<string, any> {
  const result = run(process.execPath, [path.join(__dirname, 'support', 'read-declarations.cjs'), dir, ...specs], dir);
  if (result.status !== 0) throw new Error(result.output);
  return JSON.parse(result.output);
}

function clean(dir: string): void {
  for (const entry of ['dist', 'tsconfig.tsbuildinfo']) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
}

describe('a user project compiled with tspc', () => {
  beforeAll(() => clean(BASIC));
  afterAll(() => clean(BASIC));

  it('compiles with no diagnostics and the emitted JS carries every declaration', () => {
    const result = tspc(['-p', BASIC], BASIC);
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
    const found = readDeclarations(BASIC, ['dist/files.js#readLines', 'dist/kit.js#GreetingKit.prototype.greet', 'dist/math.js#addNumbers']);
    expect(found['dist/files.js#readLines']).toMatchObject({
      name: 'read_lines',
      description: 'Reads a text file and returns its lines, numbered.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path, relative to the workspace.' },
          limit: { type: 'integer', default: 100 },
        },
        required: ['path'],
        additionalProperties: false,
      },
      returns: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, text: { type: 'string' } } } },
      metadata: { tier: 'read-only', timeoutMs: 5000, parallel: true },
      source: { form: 'wrapper', exportName: 'readLines', file: 'files.ts' },
    });
    expect(found['dist/kit.js#GreetingKit.prototype.greet']).toMatchObject({
      name: 'greet',
      metadata: { tier: 'read-only', group: 'meta' },
      source: { form: 'decorator' },
      parameters: { required: ['name'], properties: { shout: { type: 'boolean' } } },
    });
    expect(found['dist/math.js#addNumbers']).toMatchObject({
      name: 'add_numbers',
      metadata: { determinism: 'pure' },
      source: { form: 'jsdoc' },
      returns: { type: 'number' },
    });
    const call = run(
      process.execPath,
      ['-e', "new (require('./dist/kit.js').GreetingKit)('Hello').greet('Ada', true).then((r) => process.stdout.write(r))"],
      BASIC,
    );
    expect(call.output).toBe('HELLO, ADA');
  });
});

describe('a broken project fails every compile route with the transformer diagnostics', () => {
  beforeAll(() => clean(BROKEN));
  afterAll(() => clean(BROKEN));

  const routes: [string, string[]][] = [
    ['tspc', ['-p', '.']],
    ['tspc --noEmit', ['-p', '.', '--noEmit']],
    ['tspc --incremental --noEmit', ['-p', '.', '--incremental', '--noEmit']],
    ['tspc -b', ['-b', '.']],
  ];
  it.for(routes)('%s', ([, args]) => {
    clean(BROKEN);
    const result = tspc(args, BROKEN);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(
      "src/broken.ts(6,13): error TS991002: Property 'options.callback' has type '() => void', which has no JSON Schema form. (TW1002)",
    );
    expect(result.output).toContain('Hint: Tools receive data, not callbacks');
    expect(result.output).toContain("src/broken.ts(18,34): error TS991001: Tool 'runGeneric' declares type parameters");
  });

  it('still fails on a second incremental run that reuses the build info', () => {
    clean(BROKEN);
    tspc(['-p', '.', '--incremental', '--noEmit'], BROKEN);
    const second = tspc(['-p', '.', '--incremental', '--noEmit'], BROKEN);
    expect(second.status).not.toBe(0);
    expect(second.output).toContain('TS991002');
  });
});
