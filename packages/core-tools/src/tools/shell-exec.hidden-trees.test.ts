// Without the kernel sandbox (`sandbox: 'off'`, or `auto` where bubblewrap is missing), only the
// judge keeps a tree reader from reading a path a deny rule hides: here each reader is given the
// workspace root as `..` from src, after an option of every kind its grammar knows, and some it does not.
import { afterAll, describe, expect, it } from 'vitest';
import { programSpec } from '../shell/programs/index.js';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { treeReadingCases } from '../test-support/tree-reading-cases.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { shellOutput } from '../test-support/shell-output.js';
import { ShellTool } from './shell-exec.js';

const SECRET = 'SECRET-VALUE';
const ws = tempWorkspace({ 'secrets/k': `KEY=${SECRET}\n`, 'conf/prod.env': `KEY=${SECRET}\n`, 'conf/dev.env': 'KEY=dev\n', 'src/a.ts': 'const KEY = 1;\n' });
afterAll(() => ws.cleanup());
const tool = new ShellTool({
  workspace: new WorkspacePolicy({ root: ws.root, deniedPaths: ['secrets/**', 'conf/prod.env'] }),
  shell: { backend: 'session', sandbox: 'off', policy: { allow: ['cd', 'grep', 'rg', 'ls', 'du', 'tree', 'diff', 'cp', 'mkdir', 'touch'] } },
});
afterAll(() => tool.dispose());
const run = (command: string) => shellOutput(tool, command);
const inSrc = async (command: string) => {
  await run('cd src');
  return run(command);
};
/** One spelling of each option (its first), and the options the grammar does not know. */
const oneSpellingEach = (program: string) =>
  treeReadingCases(programSpec(program)!, '..').filter(({ option }, i, cases) => option === undefined || cases.findIndex((c) => c.option === option) === i);

describe('shell_exec without the sandbox: tree readers given a tree that holds a hidden path', () => {
  it.for([
    'grep -r KEY ..',
    'grep -r --no-messages KEY ..',
    'grep -r --line-buffered KEY ..',
    'grep -rs KEY ..',
    'grep -r --no-such-option KEY ..',
    'grep -r -e KEY ..',
    'grep -r -- KEY ..',
    'grep -d recurse KEY ..',
    'grep --directories=rec KEY ..',
    'rg --no-heading KEY ..',
    'rg -d 1 KEY ..',
    'ls -R ..',
    'du -a ..',
    'tree ..',
    'diff -r --no-dereference .. ../src',
    'diff --from-file=.. ../src',
  ])('%s (in src) prints nothing hidden', async (command) => {
    const output = await inSrc(command);
    expect(output).not.toContain(SECRET);
    expect(output).toMatch(/refused|would read|hidden/);
  });

  it.for([...oneSpellingEach('grep'), ...oneSpellingEach('rg')])('$title (in src) prints nothing hidden', async ({ argv }) => {
    const output = await inSrc(argv.map((word) => `'${word}'`).join(' '));
    expect(output).not.toContain(SECRET);
    expect(output).toMatch(/refused|would read|hidden/);
  });

  it('diff compares the files in a directory it is given even without -r: one holding a hidden file is refused', async () => {
    await inSrc('mkdir -p ../copy && touch ../copy/prod.env');
    const output = await inSrc('diff ../conf ../copy');
    expect(output).not.toContain(SECRET);
    expect(output).toMatch(/diff would read '\.\.\/conf': it holds 'conf\/prod\.env'/);
  });

  it('still reads a tree that holds nothing hidden', async () => {
    expect(await inSrc('grep -r --no-messages KEY .')).toContain('a.ts:const KEY = 1;');
  });
});
