// A project whose `typescript` is TypeScript 7 (what `npm i -D typescript` installs since July 2026):
// `toolwright emit` reads it through the native compiler's own API and writes what TypeScript 6's
// route writes for the same sources. The project resolves TypeScript 7.0 from tools/typescript-7.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMITTING_AFTER_CHANGE, emitWatchTypeScript7, projectTypeScript, type EmitResult } from '@toolwright/cli';
import { copyProject } from './support/temp-project.js';
import { REPO, toolwright } from './support/run.js';

const TYPESCRIPT_7 = path.join(REPO, 'tools/typescript-7/7.0/node_modules/typescript');
const installed = fs.existsSync(path.join(TYPESCRIPT_7, 'package.json'));
if (process.env.CI && !installed) throw new Error('CI must test the TypeScript 7 route: run node tools/typescript-7/install.mjs');

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A copy of an e2e project, on TypeScript 7 (its node_modules/typescript) or on the repository's TypeScript 6. */
function project(name: string, label: string, typescript: 6 | 7): string {
  const dir = copyProject(name, `ts${typescript}-${label}`);
  temporary.push(dir);
  if (typescript === 7) {
    fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    fs.symlinkSync(TYPESCRIPT_7, path.join(dir, 'node_modules', 'typescript'));
  }
  return dir;
}

/** The output without the line that times the run. */
const untimed = (output: string) => output.replace(/ in \d+ ms/g, ' in N ms');

describe.skipIf(!installed)('toolwright emit on a TypeScript 7 project', () => {
  it('finds TypeScript 7 in the project, and writes the manifest TypeScript 6 writes', () => {
    const seven = project('basic-project', 'emit', 7);
    const six = project('basic-project', 'emit', 6);
    expect(projectTypeScript(seven)).toMatchObject({ major: 7, version: '7.0.2' });
    expect(projectTypeScript(six).major).toBe(6);
    const results = [toolwright(['emit'], seven), toolwright(['emit'], six)];
    expect(results.map((result) => result.status)).toEqual([0, 0]);
    expect(untimed(results[0]!.output)).toBe(untimed(results[1]!.output));
    expect(fs.readFileSync(path.join(seven, 'tools.json'), 'utf8')).toBe(fs.readFileSync(path.join(six, 'tools.json'), 'utf8'));
    // The module route (the declarations attached to a tsgo build) is the same too, but for its own path.
    expect(toolwright(['emit', '--module', 'src/tools.generated.ts'], seven).status).toBe(0);
    expect(toolwright(['emit', '--module', 'src/tools.generated.ts'], six).status).toBe(0);
    expect(fs.readFileSync(path.join(seven, 'src/tools.generated.ts'), 'utf8')).toBe(fs.readFileSync(path.join(six, 'src/tools.generated.ts'), 'utf8'));
  });

  it('prints the report and judges the budget as TypeScript 6 does (--report json, --budget)', () => {
    const seven = project('basic-project', 'report', 7);
    const six = project('basic-project', 'report', 6);
    const [byNative, byCompilerApi] = [toolwright(['emit', '--report', 'json'], seven), toolwright(['emit', '--report', 'json'], six)];
    expect([byNative.status, byCompilerApi.status], byNative.output).toEqual([0, 0]);
    expect(JSON.parse(byNative.stdout)).toEqual(JSON.parse(byCompilerApi.stdout));
    const { totals } = JSON.parse(byNative.stdout) as { totals: Record<string, number> };
    const over = toolwright(['emit', '--budget', String(totals.anthropic! - 1), '--budget-dialect', 'anthropic'], seven);
    expect(over.status).toBe(1);
    expect(over.stderr).toContain(`The declarations take ${totals.anthropic} tokens in the anthropic dialect`);
  });

  it('reports the same diagnostics as TypeScript 6 for a broken project, exits 1 and writes nothing', () => {
    const seven = project('broken-project', 'broken', 7);
    const six = project('broken-project', 'broken', 6);
    const [byNative, byCompilerApi] = [toolwright(['emit'], seven), toolwright(['emit'], six)];
    expect(byNative.status, byNative.output).toBe(1);
    // Both outputs in full when they differ.
    expect(untimed(byNative.output), `TypeScript 6 printed:\n${byCompilerApi.output}`).toBe(untimed(byCompilerApi.output));
    expect(byNative.output).toContain('error TW1002');
    expect(fs.existsSync(path.join(seven, 'tools.json'))).toBe(false);
  });

  it("gives an editor the diagnostics: docs/toolchain.md's problem matcher reads the lines emit (and emit --watch) prints", () => {
    const docs = fs.readFileSync(path.join(REPO, 'docs', 'toolchain.md'), 'utf8');
    const block = [...docs.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!).find((text) => text.includes('problemMatcher'))!;
    const matcher = JSON.parse(block).tasks[0].problemMatcher;
    const dir = project('broken-project', 'matcher', 7);
    const result = toolwright(['emit'], dir);
    const lines = result.output.split('\n');
    const found = lines.flatMap((line) => {
      const match = new RegExp(matcher.pattern.regexp).exec(line);
      return match
        ? [
            {
              file: match[matcher.pattern.file],
              line: Number(match[matcher.pattern.line]),
              column: Number(match[matcher.pattern.column]),
              severity: match[matcher.pattern.severity],
              code: match[matcher.pattern.code],
              message: match[matcher.pattern.message],
            },
          ]
        : [];
    });
    expect(found).toContainEqual({
      file: 'src/broken.ts',
      line: 6,
      column: 13,
      severity: 'error',
      code: 'TW1002',
      message: "Property 'options.callback' has type '() => void', which has no JSON Schema form.",
    });
    // A run ends with its summary or its error count, and a change begins the next.
    expect(lines.some((line) => new RegExp(matcher.background.endsPattern).test(line))).toBe(true);
    expect(new RegExp(matcher.background.beginsPattern).test(EMITTING_AFTER_CHANGE)).toBe(true);
  });

  it("stops at the native compiler's syntax errors, as tsc prints them", () => {
    const dir = project('basic-project', 'syntax', 7);
    fs.appendFileSync(path.join(dir, 'src', 'math.ts'), '\nexport const broken = (;\n');
    const result = toolwright(['emit'], dir);
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/src\/math\.ts\(\d+,\d+\): error TS1109: Expression expected\./);
    expect(fs.existsSync(path.join(dir, 'tools.json'))).toBe(false);
  });

  it('--typescript chooses, and says what is missing', () => {
    const six = project('basic-project', 'choose', 6);
    const refused = toolwright(['emit', '--typescript', '7'], six);
    expect(refused.status).toBe(2);
    expect(refused.output).toContain('--typescript 7: the project in');
    expect(refused.output).toContain('install it with npm i -D typescript@7');
    expect(toolwright(['emit', '--typescript', '8'], six).output).toContain("--typescript takes 6 or 7, not '8'");
  });

  it('--watch re-emits after a change, reading only what changed again', async () => {
    const dir = project('basic-project', 'watch', 7);
    const results: (EmitResult | Error)[] = [];
    let resolveNext: (() => void) | undefined;
    const next = () => new Promise<void>((resolve) => (resolveNext = resolve));
    const first = next();
    const handle = await emitWatchTypeScript7(
      { project: path.join(dir, 'tsconfig.json'), cwd: dir },
      projectTypeScript(dir),
      (result) => {
        results.push(result);
        resolveNext?.();
      },
      () => {},
    );
    try {
      await first;
      const manifest = path.join(dir, 'tools.json');
      expect(JSON.parse(fs.readFileSync(manifest, 'utf8'))).toHaveLength(3);
      const changed = next();
      const source = path.join(dir, 'src', 'math.ts');
      fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace('b: number', 'b: number, c?: number'));
      await changed;
      const latest = results.at(-1);
      expect(latest).not.toBeInstanceOf(Error);
      const added = JSON.parse(fs.readFileSync(manifest, 'utf8')).find((tool: { name: string }) => tool.name === 'add_numbers');
      expect(Object.keys(added.parameters.properties)).toContain('c');
    } finally {
      handle.close();
    }
  });
});
