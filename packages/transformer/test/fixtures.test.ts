import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../src/index.js';
import { fixtureCompiler, fixtureTypeErrors } from './compile-fixture.js';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const ERROR_AREA = '_error_';

interface Samples {
  /** Argument objects the parameters schema must accept / reject, per tool name. */
  [tool: string]: { valid?: unknown[]; invalid?: unknown[]; validReturns?: unknown[]; invalidReturns?: unknown[] };
}

function cases(area?: string): { name: string; dir: string }[] {
  const areas = area ? [area] : fs.readdirSync(FIXTURES).filter((a) => a !== ERROR_AREA && fs.statSync(path.join(FIXTURES, a)).isDirectory());
  return areas.flatMap((a) =>
    fs
      .readdirSync(path.join(FIXTURES, a))
      .filter((c) => fs.existsSync(path.join(FIXTURES, a, c, 'input.ts')))
      .map((c) => ({ name: `${a}/${c}`, dir: path.join(FIXTURES, a, c) })),
  );
}

// Strict, except two AJV-specific rules: optional tuple elements make minItems < prefixItems.length
// (strictTuples), and type arrays such as ["string", "null"] are standard 2020-12 (allowUnionTypes). One for the
// file: its meta-schema validator, compiled at the first schema checked, costs more than the fixture it checks.
const ajv = new Ajv2020({ strict: true, strictTuples: false, allowUnionTypes: true, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

const validCases = cases();
const errorCases = cases(ERROR_AREA);
// Each kind compiled in one program, each fixture analysed and type-checked in its own files (`fixtureCompiler`).
const compileValid = fixtureCompiler(validCases.map((c) => c.dir));
const compileError = fixtureCompiler(errorCases.map((c) => c.dir));

describe('valid fixtures', () => {
  it('has at least 120 valid cases', () => {
    expect(validCases.length).toBeGreaterThanOrEqual(120);
  });

  it.for(validCases)('$name', async ({ dir }) => {
    const { program, analysis } = compileValid(dir);
    const typeErrors = fixtureTypeErrors(program, dir);
    expect(typeErrors, 'valid fixtures type-check').toEqual([]);
    const diagnostics = formatDiagnostics(analysis.diagnostics, { fileName: (f) => path.relative(dir, f).replace(/\\/g, '/') });
    const pinnedWarnings = path.join(dir, 'expected.diagnostics.txt');
    if (fs.existsSync(pinnedWarnings)) {
      // A valid fixture may pin warnings (a declaration is still emitted): never errors.
      expect(analysis.diagnostics.filter((d) => d.category === 'error')).toEqual([]);
      await expect(`${diagnostics}\n`).toMatchFileSnapshot(pinnedWarnings);
    } else {
      expect(diagnostics).toBe('');
    }
    const declarations = analysis.tools.map((t) => t.declaration!).sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(declarations.length).toBeGreaterThan(0);
    await expect(`${JSON.stringify(declarations, null, 2)}\n`).toMatchFileSnapshot(path.join(dir, 'expected.json'));

    const samplesFile = path.join(dir, 'samples.json');
    const samples: Samples = fs.existsSync(samplesFile) ? JSON.parse(fs.readFileSync(samplesFile, 'utf8')) : {};
    for (const declaration of declarations) {
      expect(ajv.validateSchema(declaration.parameters), `${declaration.name} parameters: ${ajv.errorsText()}`).toBe(true);
      const validate = ajv.compile(declaration.parameters);
      const own = samples[declaration.name] ?? {};
      for (const value of own.valid ?? [])
        expect(validate(value), `${declaration.name} should accept ${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      for (const value of own.invalid ?? []) expect(validate(value), `${declaration.name} should reject ${JSON.stringify(value)}`).toBe(false);
      if (declaration.returns) {
        expect(ajv.validateSchema(declaration.returns), `${declaration.name} returns: ${ajv.errorsText()}`).toBe(true);
        const validateReturns = ajv.compile(declaration.returns);
        for (const value of own.validReturns ?? [])
          expect(validateReturns(value), `${declaration.name} returns should accept ${JSON.stringify(value)}`).toBe(true);
        for (const value of own.invalidReturns ?? [])
          expect(validateReturns(value), `${declaration.name} returns should reject ${JSON.stringify(value)}`).toBe(false);
      }
    }
    const sampled = Object.keys(samples);
    expect(sampled.length, 'samples.json names at least one tool').toBeGreaterThan(0);
    for (const name of sampled) expect(declarations.map((d) => d.name)).toContain(name);
  });
});

describe('compile-fail fixtures', () => {
  it('has at least 35 error cases', () => {
    expect(errorCases.length).toBeGreaterThanOrEqual(35);
  });

  it.for(errorCases)('$name', async ({ dir }) => {
    const { analysis } = compileError(dir);
    expect(analysis.diagnostics.some((d) => d.category === 'error')).toBe(true);
    const text = formatDiagnostics(analysis.diagnostics, { fileName: (f) => path.relative(dir, f).replace(/\\/g, '/') });
    await expect(`${text}\n`).toMatchFileSnapshot(path.join(dir, 'expected.diagnostics.txt'));
  });
});
