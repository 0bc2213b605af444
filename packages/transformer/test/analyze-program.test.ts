import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeProgram } from '../src/index.js';
import { FIXTURE_OPTIONS } from './compile-fixture.js';

const dir = fs.mkdtempSync(path.join(__dirname, '.tmp-analyze-program-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe(analyzeProgram, () => {
  // Two projects' files in one program, each with a tool named `greet`: together their names clash; each file alone is whole.
  const write = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  const first = write(
    'first.ts',
    "import { tool } from '@toolwright/tool';\n/** Greets. */\nexport const greet = tool(async function greet(name: string) {});\n",
  );
  const second = write(
    'second.ts',
    "import { tool } from '@toolwright/tool';\n/** Greets loudly. */\nexport const greet = tool(async function greet(loud: boolean) {});\n",
  );
  const program = ts.createProgram([first, second], FIXTURE_OPTIONS);

  it('analyses every file of the program by default, whose wire names must be unique across it', () => {
    const analysis = analyzeProgram(program, { rootDir: dir });
    expect(analysis.tools).toHaveLength(2);
    expect(analysis.diagnostics.map((d) => d.code)).toEqual([1008]); // duplicateToolName;
  });

  it('analyses only the files named, each on its own (the rest of the program read for types alone)', () => {
    const alone = (file: string) => analyzeProgram(program, { rootDir: dir, files: [file] });
    expect(alone(first).diagnostics).toEqual([]);
    expect(alone(first).tools.map((t) => Object.keys(t.declaration!.parameters.properties))).toEqual([['name']]);
    expect(alone(second).diagnostics).toEqual([]);
    expect(alone(second).tools.map((t) => Object.keys(t.declaration!.parameters.properties))).toEqual([['loud']]);
    expect(alone(first)).toBe(alone(first)); // one analysis per program and setting
    expect(analyzeProgram(program, { rootDir: dir, files: [] }).tools).toEqual([]);
  });

  it('analyses a program once for the build and its source transformer, which names no rootDir', () => {
    const built = ts.createProgram([first], FIXTURE_OPTIONS);
    expect(analyzeProgram(built, {})).toBe(analyzeProgram(built, { rootDir: dir }));
  });
});
