import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { findTools, mentionsOf } from '../src/analysis/find-tools.js';
import { JsDocReader } from '../src/jsdoc-reader.js';
import { Reporter } from '../src/reporter.js';
import { ToolCalleeResolver } from '../src/analysis/tool-callee.js';
import { FIXTURE_OPTIONS } from './compile-fixture.js';

const dir = fs.mkdtempSync(path.join(__dirname, '.tmp-find-tools-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('mentionsOf', () => {
  it('finds a word only as a whole ASCII name', () => {
    const text = 'tool0 mytool tools $tool tool_ x.tool(';
    const mentions = mentionsOf(text, ['tool']);
    expect(mentions(0, text.indexOf('x.tool'))).toBe(false);
    expect(mentions(text.indexOf('x.tool'), text.length)).toBe(true);
  });

  it('counts a name at either end of the text, beside punctuation or a non-ASCII letter', () => {
    expect(mentionsOf('tool', ['tool'])(0, 4)).toBe(true);
    expect(mentionsOf('@tool*/', ['tool'])(0, 7)).toBe(true);
    expect(mentionsOf('étool', ['tool'])(0, 5)).toBe(true);
    expect(mentionsOf('(t)', ['t'])(0, 3)).toBe(true);
    expect(mentionsOf('at', ['t'])(0, 2)).toBe(false);
  });

  it('answers for the range a name starts in', () => {
    const mentions = mentionsOf('abc tool def', ['tool']);
    expect(mentions(0, 4)).toBe(false);
    expect(mentions(0, 5)).toBe(true);
    expect(mentions(5, 12)).toBe(false);
  });
});

describe('findTools', () => {
  it('finds every form however the callee is spaced, next to names that merely contain "tool"', () => {
    fs.writeFileSync(
      path.join(dir, 'tools.ts'),
      `
import { tool } from '@toolwright/tool';
import * as tw from '@toolwright/tool';
import { tool as t } from '@toolwright/tool';

/** A. */ export const toolA = tool(async function toolA(x: string) { return x; });
/** B. */ export const toolB = tool (async (x: string) => x);
/** C. */ export const toolB2 = tw.tool(async function tooled(x: string) { return x; });
/** D. */ export const d = t(async function d(x: string) { return x; });
/** E. */ export const tools = tool(
  async function e(x: string) { return x; });
/**
 * F.
 * @tool
 */
export async function toolsF(x: string) { return x; }
export class Toolbox {
  /** G. */ @tool() async toolG(x: string) { return x; }
}
export const notATool = [toolA].map((toolish) => toolish);
`,
    );
    const program = ts.createProgram([path.join(dir, 'tools.ts')], { ...FIXTURE_OPTIONS, experimentalDecorators: false });
    const checker = program.getTypeChecker();
    const reporter = new Reporter();
    const sourceFile = program.getSourceFile(path.join(dir, 'tools.ts'))!;
    const candidates = findTools(sourceFile, {
      checker,
      docs: new JsDocReader(),
      reporter,
      callee: new ToolCalleeResolver(checker, (f) => ts.sys.readFile(f)),
    });
    expect(reporter.diagnostics.map((d) => d.message)).toEqual([]);
    expect(candidates.map((c) => [c.form, c.exportName])).toEqual([
      ['wrapper', 'toolA'],
      ['wrapper', 'toolB'],
      ['wrapper', 'toolB2'],
      ['wrapper', 'd'],
      ['wrapper', 'tools'],
      ['jsdoc', 'toolsF'],
      ['decorator', 'Toolbox.prototype.toolG'],
    ]);
  });

  it('finds a source form whose `source` comes through a local re-export, in a file that never mentions "tool"', () => {
    const found = find(
      {
        'runtime.ts': "export { source } from '@toolwright/sources';\n",
        'slugs.ts':
          "import { source } from './runtime.js';\n/** Makes a slug. */\nexport const slug = source.wasm<(text: string) => Promise<string>>('./slug.wasm');\n",
      },
      'slugs.ts',
    );
    expect(found).toEqual({ candidates: [['wasm', 'slug']], diagnostics: [] });
  });

  it('finds a source form called through a variable initialised with `source`', () => {
    const found = find(
      {
        'runtime.ts': "export { source } from '@toolwright/sources';\n",
        'alias.ts': `import { source as sources } from './runtime.js';
const s = sources;
const t = (s);
/** Makes a slug. */
export const slug = t.wasm<(text: string) => Promise<string>>('./slug.wasm');
/** Counts words. */
export const count = s.subprocess(['./count.py']);
`,
      },
      'alias.ts',
    );
    expect(found.candidates).toEqual([['wasm', 'slug']]);
    expect(found.diagnostics).toEqual([expect.stringContaining("source.subprocess() needs the tool's signature")]);
  });

  it('reports `export default source.wasm<F>(...)` as a source form that must be bound to an exported const, not as "not exported"', () => {
    const found = find(
      {
        'default.ts':
          "import { source } from '@toolwright/sources';\n/** Makes a slug. */\nexport default source.wasm<(text: string) => Promise<string>>('./slug.wasm');\n",
      },
      'default.ts',
    );
    expect(found).toEqual({
      candidates: [],
      diagnostics: ["source.wasm() must be the value of an exported const: the tool's name and export are the const's."],
    });
  });
});

/** The tools `findTools` finds in `main` among `files` (written to the temporary folder), and what it reports. */
function find(files: Record<string, string>, main: string) {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const program = ts.createProgram([path.join(dir, main)], FIXTURE_OPTIONS);
  const checker = program.getTypeChecker();
  const reporter = new Reporter();
  const candidates = findTools(program.getSourceFile(path.join(dir, main))!, {
    checker,
    docs: new JsDocReader(),
    reporter,
    callee: new ToolCalleeResolver(checker, (f) => ts.sys.readFile(f)),
  });
  return { candidates: candidates.map((c) => [c.runs, c.exportName]), diagnostics: reporter.diagnostics.map((d) => d.message) };
}
