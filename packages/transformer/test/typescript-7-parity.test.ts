// Every fixture, valid and compile-fail, through both front ends: TypeScript 6's compiler API and
// TypeScript 7's (the native compiler, through its own API). The same tools must come out with
// the same declarations and the same diagnostics (codes, messages, positions).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostics, type Compiler7, type OpenProject7, type ProgramAnalysis } from '../src/index.js';
import { analyzeTypeScript7 } from '../src/analysis/analyze-typescript-7.js';
import { fixtureCompiler } from './compile-fixture.js';
import { fixturesTsconfig, typeScript7, typeScript7Installs } from './typescript-7.js';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const fixtures = fs.readdirSync(FIXTURES).flatMap((area) =>
  fs.statSync(path.join(FIXTURES, area)).isDirectory()
    ? fs
        .readdirSync(path.join(FIXTURES, area))
        .filter((name) => fs.existsSync(path.join(FIXTURES, area, name, 'input.ts')))
        .map((name) => ({ name: `${area}/${name}`, dir: path.join(FIXTURES, area, name) }))
    : [],
);

const installs = typeScript7Installs().map((install) => ({ ...install, present: fs.existsSync(path.join(install.dir, 'package.json')) }));
if (process.env.CI && installs.some((install) => !install.present))
  throw new Error(
    `CI must test every TypeScript 7 line, but ${installs.filter((i) => !i.present).map((i) => i.line)} is not installed: run node tools/typescript-7/install.mjs`,
  );

const configs: string[] = [];
afterAll(() => {
  for (const config of configs) fs.rmSync(path.dirname(config), { recursive: true, force: true });
});

/** What both front ends must agree on: the declarations and the diagnostics as `toolwright emit` prints them. */
function outcome(analysis: ProgramAnalysis, dir: string) {
  return {
    declarations: analysis.tools
      .map((tool) => tool.declaration ?? { failed: tool.candidate.functionName })
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
    diagnostics: formatDiagnostics(analysis.diagnostics, { fileName: (file) => path.relative(dir, file).replace(/\\/g, '/') }),
  };
}

/**
 * TypeScript 6's outcome of a fixture. A valid fixture's is pinned — fixtures.test.ts holds TypeScript 6 to its
 * expected.json and expected.diagnostics.txt — and read from there; a compile-fail fixture pins its diagnostics but
 * not the declarations of its other tools, so it is compiled, once for every TypeScript 7 line it is held against.
 */
const sixOutcomes = new Map<string, string>();
function sixOutcome(dir: string): string {
  let text = sixOutcomes.get(dir);
  if (text === undefined)
    sixOutcomes.set(dir, (text = JSON.stringify(path.basename(path.dirname(dir)) === '_error_' ? compiledOutcome(dir) : pinnedOutcome(dir), null, 2)));
  return text;
}

const compileError = fixtureCompiler(fixtures.filter((fixture) => path.basename(path.dirname(fixture.dir)) === '_error_').map((fixture) => fixture.dir));
function compiledOutcome(dir: string) {
  return outcome(compileError(dir).analysis, dir);
}

function pinnedOutcome(dir: string) {
  const declarations = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as object[];
  const warnings = path.join(dir, 'expected.diagnostics.txt');
  return {
    declarations: declarations.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
    diagnostics: fs.existsSync(warnings) ? fs.readFileSync(warnings, 'utf8').replace(/\n$/, '') : '',
  };
}

for (const install of installs) {
  describe.skipIf(!install.present)(`TypeScript ${install.line} front end, fixture by fixture against TypeScript 6`, () => {
    // One project holds every fixture (the libraries read and checked once, not once a fixture: a project opened a
    // fixture took 70 ms, most of the parity test), and each fixture's tools are analysed alone (`files`), as one
    // project of its own would be (a wire name need only be unique within the fixture).
    let project: { compiler: Compiler7; open: OpenProject7 } | undefined;
    afterAll(() => {
      project?.open.close();
      project?.compiler.close();
    });
    it.for(fixtures)('$name', async ({ dir }) => {
      const typescript = await typeScript7(install.dir);
      if (!project) {
        const compiler = typescript.startCompiler(FIXTURES);
        const config = fixturesTsconfig(fixtures.map((fixture) => path.join(fixture.dir, 'input.ts')));
        configs.push(config);
        project = { compiler, open: compiler.openProject(config) };
      }
      const options = fs.existsSync(path.join(dir, 'options.json')) ? JSON.parse(fs.readFileSync(path.join(dir, 'options.json'), 'utf8')) : {};
      const seven = analyzeTypeScript7(typescript, project.open, { ...options, rootDir: dir, files: [path.join(dir, 'input.ts')] });
      // As text: the order of properties, members and keys is part of what a model is shown.
      expect(JSON.stringify(outcome(seven, dir), null, 2)).toBe(sixOutcome(dir));
    });
  });
}
