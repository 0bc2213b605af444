import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createSourceTransformer } from '../src/index.js';
import { FIXTURE_OPTIONS } from './compile-fixture.js';

const dir = fs.mkdtempSync(path.join(__dirname, '.tmp-source-transformer-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A file declaring one source tool, named after the file (two tools of one name would be an error). */
const tools = (file: string) => `import { source } from '@toolwright/sources';
/** Counts words. */
export const ${file.replace(/\W/g, '_')} = source.subprocess<(text: string) => Promise<number>>(['./word_stats.py']);
`;

/** Compiles `src/<file>`s (in memory) with the source transformer: the JavaScript output of each file by its path. */
function emit(files: readonly string[], options: ts.CompilerOptions): Map<string, string> {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  for (const file of files) fs.writeFileSync(path.join(dir, 'src', file), tools(file));
  const program = ts.createProgram(
    files.map((file) => path.join(dir, 'src', file)),
    { ...FIXTURE_OPTIONS, noEmit: false, ...options },
  );
  const outputs = new Map<string, string>();
  program.emit(undefined, (name, text) => outputs.set(path.normalize(name), text), undefined, false, { before: [createSourceTransformer(program)] });
  return outputs;
}

/** The arguments after the declaration in the emitted source call: the recorded directory and its anchor. */
function recorded(text: string | undefined): { base: string; anchor?: string } {
  const match = /'\), ("[^"]*")(?:, (import\.meta\.url|__filename))?\)/.exec(text ?? '');
  if (!match) throw new Error(`no declaring directory in:\n${text}`);
  return { base: JSON.parse(match[1]!) as string, ...(match[2] ? { anchor: match[2] } : {}) };
}

describe(createSourceTransformer, () => {
  it('records a source form’s declaring directory relative to its output file, anchored where that output runs (ES module or CommonJS)', () => {
    const outputs = emit(['tools.mts', 'tools.cts'], { outDir: path.join(dir, 'dist'), rootDir: dir });
    const moved = path.join(path.dirname(dir), 'elsewhere');
    for (const [output, anchor] of [
      ['tools.mjs', 'import.meta.url'],
      ['tools.cjs', '__filename'],
    ] as const) {
      const text = outputs.get(path.join(dir, 'dist', 'src', output));
      expect(recorded(text)).toEqual({ base: '../../src', anchor });
      expect(text).not.toContain(dir); // no path of the build machine
      // Moved as a whole, the output finds the declaring directory in its new place (as @toolwright/sources resolves it).
      const runsAt = anchor === '__filename' ? path.join(moved, 'dist', 'src', output) : pathToFileURL(path.join(moved, 'dist', 'src', output)).href;
      const runDir = path.dirname(runsAt.startsWith('file:') ? fileURLToPath(runsAt) : runsAt);
      expect(path.resolve(runDir, recorded(text).base)).toBe(path.join(moved, 'src'));
    }
  });

  it('records "." when the output is written beside its source (no outDir)', () => {
    const outputs = emit(['beside.mts'], {});
    expect(recorded(outputs.get(path.join(dir, 'src', 'beside.mjs')))).toEqual({ base: '.', anchor: 'import.meta.url' });
  });

  it('keeps the absolute directory for an output that cannot say where it runs (AMD into one outFile)', () => {
    const outputs = emit(['bundled.ts'], {
      module: ts.ModuleKind.AMD,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      outFile: path.join(dir, 'bundle.js'),
      ignoreDeprecations: '6.0',
    });
    expect(recorded([...outputs.values()].find((text) => text.includes('bundled_ts')))).toEqual({ base: path.join(dir, 'src') });
  });
});
