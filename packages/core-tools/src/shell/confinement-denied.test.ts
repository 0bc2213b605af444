import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TREE_READERS, treeReadingCases } from '../test-support/tree-reading-cases.js';
import { hiddenInTree } from '../workspace/tree-scan.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { loadBashParser } from './bash-parser.js';
import { analyzeCommand, type CommandVerdict } from './command-analysis.js';
import { workspaceConfinement } from './confinement.js';
import { DEFAULT_SHELL_POLICY } from './shell-policy.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-shell-denied-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
for (const file of ['secrets/prod.key', 'src/app.ts', 'src/nested/deep.ts', 'big/keep.txt', 'notes.txt']) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), 'x');
}
fs.symlinkSync('secrets', path.join(root, 'alias'));
fs.symlinkSync('/etc', path.join(root, 'etc-link'));
const workspace = new WorkspacePolicy({ root, deniedPaths: ['secrets/**', '**/*.pem'] });

async function judge(command: string, cwd?: string): Promise<CommandVerdict> {
  const parser = await loadBashParser();
  const tree = parser.parse(command)!;
  try {
    return analyzeCommand(tree.rootNode, DEFAULT_SHELL_POLICY, workspaceConfinement(workspace, cwd));
  } finally {
    tree.delete();
  }
}

describe('workspaceConfinement with hidden paths', () => {
  it.for([
    ['cat secrets/prod.key', /'secrets\/prod\.key' is hidden by a policy deny rule \(pattern 'secrets\/\*\*'\)/],
    ['cat alias/prod.key', /pattern 'secrets\/\*\*'/],
    ['ls secrets', /pattern 'secrets\/\*\*'/],
    ['cat secrets/*', /the glob 'secrets\/\*' would list a directory that is refused/],
    ['cd secrets && cat prod.key', /pattern 'secrets\/\*\*'/],
    ['grep -r API_KEY .', /grep would read '\.': it holds 'secrets', which the deny rule pattern 'secrets\/\*\*' hides/],
    ['grep -r API_KEY', /grep with no path reads the whole working directory, and it holds 'secrets'/],
    ['rg API_KEY', /rg with no path reads the whole working directory/],
    ['find . -type f', /find would read '\.': it holds 'secrets'/],
    ['ls -R', /ls with no path reads the whole working directory/],
    ['du -a', /du with no path/],
    ['cp -r . ../copy', /outside the workspace|holds 'secrets'/],
    ['cp -r src copy && cp -r . src/copy', /cp would copy '\.': it holds 'secrets'/],
    ['git show HEAD:secrets/prod.key', /git would read 'secrets\/prod\.key': 'secrets\/prod\.key' is hidden by a policy deny rule/],
    ['git show :0:secrets/prod.key', /is hidden by a policy deny rule/],
    ['cat src/cert.pem', /pattern '\*\*\/\*\.pem'/],
  ] as const)('refuses %s, naming the pattern', async ([command, reason]) => {
    const verdict = await judge(command);
    expect(verdict.ok, command).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toMatch(reason);
  });

  it.for([
    'grep -rn API_KEY src',
    'rg API_KEY src notes.txt',
    'find src -name "*.ts"',
    'ls',
    'ls -la',
    'du -sh src',
    'cat notes.txt',
    'git show HEAD:src/app.ts',
  ])('accepts %s: it reads no hidden path', async (command) => {
    expect(await judge(command)).toMatchObject({ ok: true });
  });

  it('judges a tree from where the command runs: in src, `grep -r x` reads src alone', async () => {
    expect(await judge('grep -r x', path.join(root, 'src'))).toMatchObject({ ok: true });
    expect(await judge('grep -r x ..', path.join(root, 'src'))).toMatchObject({ ok: false });
  });

  it('refuses a tree too large to check where a pattern may hide something, and skips one where none can', async () => {
    for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(root, 'big', `f${i}`), 'x');
    const tight = new WorkspacePolicy({ root, deniedPaths: ['**/*.pem'] });
    expect(hiddenInTree(tight, path.join(root, 'big'), 10)).toMatch(/too large/);
    expect(hiddenInTree(new WorkspacePolicy({ root, deniedPaths: ['secrets/**'] }), path.join(root, 'big'), 10)).toBeUndefined();
  });
});

// Run in src, which holds nothing hidden, so only the tree named (`..`, the workspace root) can make the command read a hidden path.
describe.each(TREE_READERS.map((spec) => [spec.name, spec] as const))('workspaceConfinement: %s with every option, run in src', (_name, spec) => {
  const src = path.join(root, 'src');
  const line = (argv: readonly string[]) => argv.map((word) => `'${word}'`).join(' ');

  it.for(treeReadingCases(spec, '..'))('refuses $title', async ({ argv }) => {
    const verdict = await judge(line(argv), src);
    expect(verdict.ok, line(argv)).toBe(false);
    // Refused for reading `..`, or for the option itself (as it is with a tree that hides nothing).
    const alone = await judge(line(argv.map((word) => (word === '..' ? '.' : word))), src);
    const reason = verdict.ok ? '' : verdict.reason;
    if (alone.ok)
      expect(reason, line(argv)).toMatch(/would (read|copy) '\.\.': it holds 'secrets'|with no path reads the whole working directory, and it holds 'secrets'/);
    else expect(reason, line(argv)).toBe(alone.reason);
  });

  it.for([...treeReadingCases(spec, '/etc'), ...treeReadingCases(spec, '../etc-link')])('refuses $title', async ({ argv }) => {
    expect((await judge(line(argv), src)).ok, line(argv)).toBe(false);
  });
});
