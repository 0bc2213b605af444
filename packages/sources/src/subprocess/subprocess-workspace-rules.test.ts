// A subprocess tool's sandbox is the shell's view of the workspace, built from what the workspace keeps from every
// tool (as the CLI hands it to each call): protected paths read-only wherever they lie, the paths git's configuration
// reads or runs read-only, the paths deny rules name hidden — for a tool that writes, and for one that only reads.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folder, runPython, snapshot, value } from './test-support/python-tool.js';
import { sandboxHere } from './test-support/sandbox-here.js';

const here = await sandboxHere();
const REQUIRED = { sandbox: 'required' } as const;
const rules = { protectedPaths: ['.git', '.env', '/tsconfig.json', '/node_modules/@toolwright'], deniedPaths: ['secrets/**'] };

/** Python that tries to read, write and create each path and reports what happened. */
function tryAll(paths: Record<string, string>): string {
  return [
    'import json, os',
    `paths = ${JSON.stringify(paths)}`,
    'result = {}',
    'for name, target in paths.items():',
    '    outcome = []',
    '    for mode in ("r", "a"):',
    '        try:',
    '            with open(target, mode) as f:',
    '                f.read() if mode == "r" else f.write("planted")',
    '            outcome.append("ok")',
    '        except OSError as error:',
    '            outcome.append(os.strerror(error.errno) if error.errno else error.__class__.__name__)',
    '    result[name] = outcome',
    'print(json.dumps(result))',
    '',
  ].join('\n');
}

function project(): string {
  const workspace = folder('tw-subprocess-rules-');
  fs.writeFileSync(path.join(workspace, 'tsconfig.json'), '{}\n');
  fs.mkdirSync(path.join(workspace, 'node_modules', '@toolwright', 'sources'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'node_modules', '@toolwright', 'sources', 'index.js'), 'export {};\n');
  fs.mkdirSync(path.join(workspace, 'secrets'));
  fs.writeFileSync(path.join(workspace, 'secrets', 'prod.key'), 'hunter2\n');
  fs.mkdirSync(path.join(workspace, 'lib', '.git'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'lib', '.git', 'config'), '[core]\n');
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'kept\n');
  return workspace;
}

describe.skipIf(!here.bubblewrap)(`a subprocess tool and the workspace's rules (needs bubblewrap${here.reason ? `: ${here.reason}` : ''})`, () => {
  it('writes nothing the workspace protects and reads nothing a deny rule hides, while writing what they leave alone', async () => {
    const workspace = project();
    const protectedBefore = snapshot(path.join(workspace, 'node_modules'));
    const code = tryAll({
      tsconfig: path.join(workspace, 'tsconfig.json'),
      hostCode: path.join(workspace, 'node_modules', '@toolwright', 'sources', 'index.js'),
      nestedGit: path.join(workspace, 'lib', '.git', 'config'),
      secret: path.join(workspace, 'secrets', 'prod.key'),
      notes: path.join(workspace, 'notes.txt'),
    });
    const result = value<Record<string, string[]>>((await runPython(code, REQUIRED, { workspace, tier: 'side-effecting', rules })).result);
    expect(result.tsconfig).toEqual(['ok', 'Read-only file system']);
    expect(result.hostCode).toEqual(['ok', 'Read-only file system']);
    expect(result.nestedGit).toEqual(['ok', 'Read-only file system']);
    expect(result.secret![0]).not.toBe('ok');
    expect(result.notes).toEqual(['ok', 'ok']);
    expect(fs.readFileSync(path.join(workspace, 'tsconfig.json'), 'utf8')).toBe('{}\n');
    expect(fs.readFileSync(path.join(workspace, 'secrets', 'prod.key'), 'utf8')).toBe('hunter2\n');
    expect(snapshot(path.join(workspace, 'node_modules'))).toEqual(protectedBefore);
  });

  it('hides what a deny rule names from a read-only tool too', async () => {
    const workspace = project();
    const code = tryAll({ secret: path.join(workspace, 'secrets', 'prod.key'), notes: path.join(workspace, 'notes.txt') });
    const result = value<Record<string, string[]>>((await runPython(code, REQUIRED, { workspace, tier: 'read-only', rules })).result);
    expect(result.secret![0]).not.toBe('ok');
    expect(result.notes).toEqual(['ok', 'Read-only file system']);
  });
});
