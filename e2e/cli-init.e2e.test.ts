// `toolwright init` as a newcomer runs it: in a folder outside the repository, then build, list and call.
// Instead of a network install, the folder's node_modules links this repository's packages.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO, run, toolwright } from './support/run.js';

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function userFolder(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-init-'));
  temporary.push(dir);
  fs.mkdirSync(path.join(dir, 'node_modules'));
  for (const name of ['@toolwright', 'typescript']) fs.symlinkSync(path.join(REPO, 'node_modules', name), path.join(dir, 'node_modules', name), 'dir');
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
const toolNames = (output: string) => (JSON.parse(output) as { name: string }[]).map((d) => d.name);

describe('toolwright init', () => {
  it('sets up an empty folder that builds, lists and calls its example tools', () => {
    const dir = userFolder();
    const result = toolwright(['init'], dir);
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toContain('created    tsconfig.json\n');
    expect(result.stdout).toMatch(
      /Next:\n {2}npm install @toolwright\/tool && npm install --save-dev typescript@[\d.]+ @toolwright\/cli .* && npm run build\n/,
    );

    const build = toolwright(['build', '--no-pretty'], dir);
    expect(build).toMatchObject({ status: 0, output: '' });
    const declarations = run(
      process.execPath,
      [path.join(__dirname, 'support', 'read-declarations.cjs'), dir, 'dist/tools.js#greet', 'dist/tools.js#addNumbers'],
      dir,
    );
    expect(Object.values(JSON.parse(declarations.output) as Record<string, { name: string }>).map((d) => d.name)).toEqual(['greet', 'add_numbers']);

    const list = toolwright(['list', '-p', 'tsconfig.json'], dir);
    expect(list.status, list.stderr).toBe(0);
    expect(toolNames(list.stdout)).toEqual(expect.arrayContaining(['greet', 'add_numbers', 'file_read', 'shell_exec']));

    const call = toolwright(['call', 'greet', '--args', '{"name":"Ada","times":2}', '-p', 'tsconfig.json'], dir);
    expect(call.status, call.output).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({ status: 'completed', output: 'Hello, Ada! Hello, Ada!' });
    expect(toolwright(['policy', 'check', 'toolwright.policy.json'], dir)).toMatchObject({ status: 0, stdout: expect.stringContaining('every example holds') });
    // No --policy: the starter policy comes through toolwright.config.json.
    const verdict = (tool: string, args: object) => toolwright(['policy', 'explain', tool, '--args', JSON.stringify(args)], dir).stdout.split('\n')[0];
    expect([
      verdict('shell_exec', { command: 'rm -rf src' }),
      verdict('file_write', { path: 'a.txt', content: 'x' }),
      verdict('file_read', { path: 'a.txt' }),
    ]).toEqual(['shell_exec: DENY', 'file_write: ASK', 'file_read: ALLOW']);
  });

  it('makes `npm run build` work with the scripts it wrote', () => {
    const dir = userFolder();
    expect(toolwright(['init'], dir).status).toBe(0);
    // The repository's node_modules/.bin on PATH stands in for the project's own after an install.
    const build = spawnSync('npm', ['run', '--silent', 'build'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}` },
    });
    expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
    expect(fs.existsSync(path.join(dir, 'dist', 'tools.js'))).toBe(true);
  });

  it('changes nothing when run twice without --force', () => {
    const dir = userFolder();
    expect(toolwright(['init'], dir).status).toBe(0);
    const files = ['tsconfig.json', 'src/tools.ts', 'toolwright.config.json', 'toolwright.policy.json', 'package.json'];
    const before = files.map((file) => [read(dir, file), fs.statSync(path.join(dir, file)).mtimeMs]);
    const again = toolwright(['init'], dir);
    expect(again.status).toBe(0);
    expect(again.stdout.split('\n').slice(0, 5)).toEqual(files.map((file) => expect.stringMatching(new RegExp(`^unchanged  ${file.replace('.', '\\.')}`))));
    expect(files.map((file) => [read(dir, file), fs.statSync(path.join(dir, file)).mtimeMs])).toEqual(before);
  });

  it('adds to an existing project: a commented tsconfig keeps its settings, an existing script is kept', () => {
    const tsconfig = [
      '{',
      '  // Our project settings; do not lose this comment.',
      '  "compilerOptions": {',
      '    "target": "es2022",',
      '    "module": "commonjs", // we ship CommonJS',
      '    "strict": true,',
      '    "rootDir": "src",',
      '    "outDir": "build",',
      '  },',
      '  "include": ["src"]',
      '}',
      '',
    ].join('\n');
    const dir = userFolder({
      'tsconfig.json': tsconfig,
      'package.json': `${JSON.stringify({ name: 'existing-app', version: '1.2.3', scripts: { build: 'tsc -p .', start: 'node build/main.js' } }, null, 2)}\n`,
      'src/main.ts': 'export const answer: number = 42;\n',
    });
    const result = toolwright(['init'], dir);
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toContain(
      'updated    tsconfig.json (added @toolwright/transformer, @toolwright/transformer/program, @toolwright/language-service to compilerOptions.plugins',
    );
    expect(result.stdout).toContain('kept your "build" script (tsc -p .); --force replaces it');

    const written = read(dir, 'tsconfig.json');
    expect(written.startsWith(tsconfig.slice(0, tsconfig.indexOf('  },')))).toBe(true);
    expect(written).toContain('// Our project settings; do not lose this comment.');
    expect(written).toContain('"module": "commonjs", // we ship CommonJS');
    const manifest = JSON.parse(read(dir, 'package.json'));
    expect(manifest).toMatchObject({
      name: 'existing-app',
      version: '1.2.3',
      scripts: { build: 'tsc -p .', start: 'node build/main.js', emit: 'toolwright emit' },
    });

    expect(toolwright(['build', '--no-pretty'], dir)).toMatchObject({ status: 0, output: '' });
    expect(fs.existsSync(path.join(dir, 'build', 'main.js'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'build', 'tools.js'))).toBe(true);
    const list = toolwright(['list', '-p', 'tsconfig.json', '--no-core'], dir);
    expect(toolNames(list.stdout)).toEqual(['add_numbers', 'greet']);
  });
});

describe('toolwright <command> --help', () => {
  it.for(['init', 'emit', 'build', 'list', 'call', 'serve', 'policy'])('%s --help prints its help and exits 0, as help <command> does', (command) => {
    const help = toolwright([command, '--help'], REPO);
    expect(help).toMatchObject({ status: 0, stderr: '' });
    expect(help.stdout).toMatch(new RegExp(`^Usage: toolwright ${command}\\b`));
    expect(toolwright(['help', command], REPO).stdout).toBe(help.stdout);
  });
});
