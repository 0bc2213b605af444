import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { formatInitResult, init } from './init.js';
import { CONFIG_TEMPLATE, EXAMPLE_TOOLS, POLICY_TEMPLATE, TSCONFIG_TEMPLATE, TSCONFIG_TEMPLATE_7 } from './init-templates.js';

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function folder(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-init-unit-'));
  folders.push(dir);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
const snapshot = (dir: string) =>
  Object.fromEntries(
    (fs.readdirSync(dir, { recursive: true }) as string[]).sort().map((f) => [f, fs.statSync(path.join(dir, f)).isFile() ? read(dir, f) : '<dir>']),
  );

describe(init, () => {
  it('writes every file in an empty folder and names the packages to install', () => {
    const dir = folder();
    const result = init({ dir });
    expect(result.steps.map((s) => `${s.action} ${s.file}`)).toEqual([
      'created tsconfig.json',
      'created src/tools.ts',
      'created toolwright.config.json',
      'created toolwright.policy.json',
      'created package.json',
    ]);
    expect(read(dir, 'tsconfig.json')).toBe(TSCONFIG_TEMPLATE);
    expect(read(dir, 'src/tools.ts')).toBe(EXAMPLE_TOOLS);
    expect(JSON.parse(read(dir, 'toolwright.config.json'))).toEqual({
      $schema: './node_modules/@toolwright/cli/toolwright.config.schema.json',
      workspace: { root: '.' },
      shell: { allow: ['npm test', 'npm run build'] },
      policy: 'toolwright.policy.json',
    });
    expect(JSON.parse(read(dir, 'package.json'))).toEqual({
      name: path.basename(dir).toLowerCase(),
      version: '0.1.0',
      private: true,
      scripts: { build: 'toolwright build', emit: 'toolwright emit', serve: 'toolwright serve --mcp stdio -p tsconfig.json' },
    });
    expect(result.notes).toEqual([]);
    expect(result.next).toBe(
      `npm install @toolwright/tool && npm install --save-dev typescript@${ts.version} @toolwright/cli @toolwright/transformer @toolwright/language-service && npm run build`,
    );
    expect(formatInitResult(result)).toContain('created    tsconfig.json\n');
    // Clients start servers in / or ignore "cwd" (found by a review): the entry names every path absolutely.
    expect(result.mcpServer).toEqual({ command: 'npm', args: ['--prefix', dir, 'run', '--silent', 'serve', '--', '--workspace', dir] });
    expect(formatInitResult(result)).toContain(JSON.stringify(result.mcpServer));
  });

  it('changes nothing when run again', () => {
    const dir = folder();
    init({ dir });
    const before = snapshot(dir);
    const again = init({ dir });
    expect(again.steps.map((s) => s.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(snapshot(dir)).toEqual(before);
  });

  it('keeps files that differ and says so; --force overwrites them but only adds to a tsconfig', () => {
    const tsconfig = '{\n  // mine\n  "compilerOptions": { "outDir": "build" }\n}\n';
    const dir = folder({ 'src/tools.ts': 'export {};\n', 'toolwright.policy.json': '{ "rules": [] }\n', 'tsconfig.json': tsconfig });
    const kept = init({ dir });
    expect(kept.steps.filter((s) => s.action === 'skipped')).toEqual([
      { file: 'src/tools.ts', action: 'skipped', detail: 'it exists; --force overwrites it' },
      { file: 'toolwright.policy.json', action: 'skipped', detail: 'it exists; --force overwrites it' },
    ]);
    expect(read(dir, 'src/tools.ts')).toBe('export {};\n');
    expect(formatInitResult(kept)).toContain('skipped    src/tools.ts (it exists; --force overwrites it)');

    const forced = init({ dir, force: true });
    expect(forced.steps.map((s) => `${s.action} ${s.file}`)).toEqual([
      'unchanged tsconfig.json',
      'updated src/tools.ts',
      'unchanged toolwright.config.json',
      'updated toolwright.policy.json',
      'unchanged package.json',
    ]);
    expect(read(dir, 'src/tools.ts')).toBe(EXAMPLE_TOOLS);
    expect(read(dir, 'toolwright.policy.json')).toBe(POLICY_TEMPLATE);
    expect(read(dir, 'tsconfig.json')).toMatch(/^\{\n {2}\/\/ mine\n {2}"compilerOptions": \{ "outDir": "build",/);
  });

  it('merges the scripts into a package.json, keeping a script of the same name unless forced', () => {
    const manifest = {
      name: 'app',
      type: 'module',
      scripts: { build: 'tsc', test: 'vitest' },
      devDependencies: { typescript: '6.0.3', '@toolwright/cli': '0.1.0' },
    };
    const dir = folder({ 'package.json': `${JSON.stringify(manifest, null, 4)}\n` });
    const result = init({ dir });
    expect(result.steps.at(-1)).toEqual({
      file: 'package.json',
      action: 'updated',
      detail: 'added scripts emit, serve; kept your "build" script (tsc); --force replaces it',
    });
    const merged = read(dir, 'package.json');
    expect(merged).toContain('\n    "name": "app"');
    expect(JSON.parse(merged)).toEqual({
      ...manifest,
      scripts: { build: 'tsc', test: 'vitest', emit: 'toolwright emit', serve: 'toolwright serve --mcp stdio -p tsconfig.json' },
    });
    expect(result.next).toBe('npm install @toolwright/tool && npm install --save-dev @toolwright/transformer @toolwright/language-service && npm run build');

    expect(init({ dir }).steps.at(-1)).toMatchObject({ action: 'skipped', detail: 'kept your "build" script (tsc); --force replaces it' });
    expect(init({ dir, force: true }).steps.at(-1)).toEqual({ file: 'package.json', action: 'updated', detail: 'replaced scripts build (--force)' });
    expect(JSON.parse(read(dir, 'package.json')).scripts.build).toBe('toolwright build');
  });

  it('writes nothing when package.json or tsconfig.json cannot be read', () => {
    const unreadable: Record<string, string>[] = [{ 'package.json': '{ "name": ' }, { 'tsconfig.json': '{ "compilerOptions": [] }' }];
    for (const files of unreadable) {
      const dir = folder(files);
      expect(() => init({ dir })).toThrow(CliError);
      expect(Object.keys(snapshot(dir))).toEqual(Object.keys(files));
    }
  });

  it('notes when the tsconfig does not compile the example tools', () => {
    const dir = folder({ 'tsconfig.json': '{ "include": ["lib"] }\n', 'lib/index.ts': 'export {};\n' });
    expect(init({ dir }).notes).toEqual(['tsconfig.json does not compile src/tools.ts; add it to "include" (or "files") to build the example tools.']);
  });
});

describe('init on TypeScript 7', () => {
  it('sets up the route that works there when the folder resolves TypeScript 7: emit --module, then tsc', () => {
    const dir = folder({ 'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n' });
    fs.mkdirSync(path.join(dir, 'node_modules'));
    // init reads only its version (the packed-packages e2e installs the real one).
    fs.mkdirSync(path.join(dir, 'node_modules', 'typescript'));
    fs.writeFileSync(path.join(dir, 'node_modules', 'typescript', 'package.json'), '{ "name": "typescript", "version": "7.0.2" }');
    const result = init({ dir });
    expect(result.steps.map((step) => `${step.action} ${step.file}`)).toEqual([
      'unchanged tsconfig.json',
      'created src/tools.ts',
      'created toolwright.config.json',
      'created toolwright.policy.json',
      'created package.json',
    ]);
    expect(read(dir, 'tsconfig.json')).toBe('{ "compilerOptions": { "strict": true } }\n');
    expect(JSON.parse(read(dir, 'package.json')).scripts).toEqual({
      build: 'toolwright emit --module src/tools.generated.ts && tsc -p tsconfig.json',
      emit: 'toolwright emit --module src/tools.generated.ts',
      serve: 'toolwright serve --mcp stdio -p tsconfig.json',
    });
    expect(result.next).toBe('npm install @toolwright/tool && npm install --save-dev typescript@7.0.2 @toolwright/cli && npm run build');
    expect(result.notes[0]).toContain('writes src/tools.generated.ts (the declarations) before tsc compiles');
  });

  it('--typescript 7 sets up an empty folder for TypeScript 7, with no plugin entries in its tsconfig', () => {
    const dir = folder();
    const result = init({ dir, typescript: '7' });
    expect(read(dir, 'tsconfig.json')).toBe(TSCONFIG_TEMPLATE_7);
    expect(read(dir, 'tsconfig.json')).not.toContain('plugins');
    expect(result.next).toContain('typescript@7.0.2 @toolwright/cli && npm run build');
    expect(() => init({ dir, typescript: '8' })).toThrow("--typescript takes 6 or 7, not '8'.");
  });
});

describe('the starter files', () => {
  it('docs/getting-started.md shows the tsconfig init writes', () => {
    const page = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'getting-started.md'), 'utf8');
    expect(page).toContain(`\`\`\`jsonc\n${TSCONFIG_TEMPLATE}\`\`\``);
  });

  it('the config and the policy are JSON', () => {
    expect(() => JSON.parse(CONFIG_TEMPLATE)).not.toThrow();
    expect(JSON.parse(POLICY_TEMPLATE).rules.length).toBeGreaterThan(5);
  });
});
