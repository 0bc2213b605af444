import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { getToolDeclaration, TOOL_OPTIONS, type ToolDeclaration } from '@toolwright/schema';
import { isMarkedTool } from '@toolwright/tool';
import { setSourceBase, source } from './index.js';
import { SOURCE_TOOL, type SourceTool } from './source.js';

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function declaration(parameterOrder: string[], extra: Partial<ToolDeclaration> = {}): ToolDeclaration {
  return {
    name: 'echo',
    description: 'Echoes its arguments.',
    parameters: { type: 'object', properties: Object.fromEntries(parameterOrder.map((name) => [name, {}])), required: [], additionalProperties: false },
    parameterOrder,
    metadata: {
      tier: 'read-only',
      timeoutMs: 20_000,
      sideEffects: [],
      capabilities: [],
      determinism: 'maybe',
      resources: { timeoutMs: 20_000 },
      parallel: true,
      tags: [],
    },
    ...extra,
  };
}

/** The transformer's hidden arguments, as compiled code passes them. */
type Compiled<F> = (target: unknown, options: unknown, declaration?: ToolDeclaration, base?: string, anchor?: string) => F;
const subprocess = <F>() => source.subprocess as unknown as Compiled<F>;
const wasm = <F>() => source.wasm as unknown as Compiled<F>;

/** A program that prints its stdin: the arguments object the tool was sent comes back as its result. */
function echoProgram(): { dir: string; program: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-source-'));
  temporary.push(dir);
  const program = path.join(dir, 'echo.sh');
  fs.writeFileSync(program, '#!/bin/sh\nexec cat\n', { mode: 0o755 });
  return { dir, program };
}

describe('a source tool', () => {
  it('is a marked tool carrying its declaration, its kind and only the tool options the executor reads', () => {
    const fn = subprocess<() => Promise<unknown>>()(['cat'], { tier: 'read-only', cpuSeconds: 5, env: { A: 'b' } }, declaration([]), '/somewhere');
    expect(isMarkedTool(fn)).toBe(true);
    expect(getToolDeclaration(fn)?.name).toBe('echo');
    expect((fn as unknown as Record<symbol, unknown>)[TOOL_OPTIONS]).toEqual({ tier: 'read-only' });
    expect((fn as unknown as Record<symbol, SourceTool>)[SOURCE_TOOL]).toEqual({ kind: 'subprocess', base: '/somewhere' });
  });

  it('sends the positional arguments as one object keyed by the declared names, leaving out those not given', async () => {
    const { dir } = echoProgram();
    const fn = subprocess<(a: string, b?: number, c?: boolean) => Promise<unknown>>()(['./echo.sh'], {}, declaration(['a', 'b', 'c']), dir);
    await expect(fn('x', undefined, false)).resolves.toEqual({ a: 'x', c: false });
  });

  it('sends a flattened tool its one argument object as it is', async () => {
    const { dir } = echoProgram();
    const fn = subprocess<(options: { a: string; b: number }) => Promise<unknown>>()(
      ['./echo.sh'],
      {},
      declaration(['a', 'b'], { argumentPassing: 'object' }),
      dir,
    );
    await expect(fn({ a: 'x', b: 2 })).resolves.toEqual({ a: 'x', b: 2 });
  });

  it('resolves a relative program against the declaring directory a loader sets, and never replaces one already known', async () => {
    const { dir, program } = echoProgram();
    const fn = subprocess<(a: string) => Promise<unknown>>()(['./echo.sh'], {}, declaration(['a']));
    await expect(fn('x')).rejects.toMatchObject({ code: 'invalid_config', message: expect.stringContaining('relative') });
    setSourceBase(fn, dir);
    setSourceBase(fn, '/elsewhere');
    await expect(fn('x')).resolves.toEqual({ a: 'x' });
    expect(fs.existsSync(program)).toBe(true);
  });

  it.for([
    ['a file: URL (ES modules)', (file: string) => pathToFileURL(file).href],
    ['a path (CommonJS)', (file: string) => file],
  ] as const)('resolves a directory recorded relative to the output file against where that output runs, given as %s', async ([, anchorOf]) => {
    const { dir } = echoProgram();
    // The output moved: `dir/dist/tools.js` declared in `dir/src`, the echo program beside the source.
    fs.mkdirSync(path.join(dir, 'src'));
    fs.renameSync(path.join(dir, 'echo.sh'), path.join(dir, 'src', 'echo.sh'));
    const fn = subprocess<(a: string) => Promise<unknown>>()(['./echo.sh'], {}, declaration(['a']), '../src', anchorOf(path.join(dir, 'dist', 'tools.js')));
    expect((fn as unknown as Record<symbol, SourceTool>)[SOURCE_TOOL]!.base).toBe(path.join(dir, 'src'));
    await expect(fn('x')).resolves.toEqual({ a: 'x' });
  });

  it('takes a relative directory without an anchor as unknown, so a loader can set it', async () => {
    const fn = subprocess<(a: string) => Promise<unknown>>()(['./echo.sh'], {}, declaration(['a']), '../src');
    expect((fn as unknown as Record<symbol, SourceTool>)[SOURCE_TOOL]!.base).toBeUndefined();
  });

  it('refuses to run without a declaration, saying how to build one', async () => {
    const fn = wasm<() => Promise<unknown>>()('/nowhere/x.wasm', {});
    await expect(fn()).rejects.toMatchObject({ name: 'SourceError', code: 'not_declared', message: expect.stringContaining('transformer') });
  });

  it('takes a file: URL as given and refuses any other URL as a module', async () => {
    const fn = wasm<() => Promise<unknown>>()(new URL('https://example.com/x.wasm'), {}, declaration([]), '/base');
    await expect(fn()).rejects.toMatchObject({ code: 'invalid_config', message: expect.stringContaining('https://example.com/x.wasm') });
    const missing = wasm<() => Promise<unknown>>()(new URL('file:///nowhere/missing.wasm'), {}, declaration([]), '/base');
    await expect(missing()).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses an empty command', async () => {
    const fn = subprocess<() => Promise<unknown>>()([], {}, declaration([]), '/base');
    await expect(fn()).rejects.toMatchObject({ code: 'invalid_config', message: expect.stringContaining('empty') });
  });
});
