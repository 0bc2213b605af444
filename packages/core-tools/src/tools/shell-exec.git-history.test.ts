// A file a policy rule hides, once committed, stays in git's object store, which neither the judge's path
// checks nor the sandbox's empty mounts reach: with hidden paths, git runs only what shows no file content.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shellOutput } from '../test-support/shell-output.js';
import { ShellTool } from './shell-exec.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { testSandboxMode } from '../test-support/sandbox-mode.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-git-history-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true, maxRetries: 10 }));
const SECRET = 'HIDDEN-IN-HISTORY';
const gitIn = (...args: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, encoding: 'utf8' });
fs.mkdirSync(path.join(root, 'secrets'));
fs.writeFileSync(path.join(root, 'secrets', 'prod.key'), SECRET);
fs.writeFileSync(path.join(root, 'notes.txt'), 'notes\n');
gitIn('init', '-q');
gitIn('add', '.');
gitIn('commit', '-q', '-m', 'add files');
fs.writeFileSync(path.join(root, 'secrets', 'prod.key'), `${SECRET}-changed`);

const tool = new ShellTool({
  workspace: new WorkspacePolicy({ root, deniedPaths: ['secrets/**'] }),
  shell: { backend: 'host', sandbox: testSandboxMode(), policy: { allow: ['git'] } },
});
afterAll(() => tool.dispose());
const run = (command: string) => shellOutput(tool, command);

describe('git where a policy hides paths', () => {
  it.for([
    'git log -p',
    'git show HEAD:secrets/prod.key',
    'git show',
    'git diff',
    'git grep HIDDEN HEAD',
    'git cat-file -p HEAD:secrets/prod.key',
    'git log --patch -1',
  ])('%s prints nothing hidden', async (command) => {
    const output = await run(command);
    expect(output).not.toContain(SECRET);
    expect(output).toContain('refused');
  });

  it.for([
    // A part of the secret: the refusal repeats the command, which may not hold the whole of it.
    'git log --oneline -S IN-HIST',
    'git log --oneline -SIN-HIST',
    'git log --oneline -G HIDDEN',
    'git log --oneline -GHID.EN',
    'git log --oneline --pickaxe-regex -S HID.EN',
    `git log --oneline --find-object=${gitIn('rev-parse', `HEAD:secrets/prod.key`).stdout.trim()}`,
    'git log --oneline --raw',
    'git log -1 --cc',
    'git log -1 -m -p',
    'git log -1 --word-diff',
    'git status -v',
    'git status -vv',
    'git ls-files -s',
  ])('%s is refused: it searches or shows what the tree hides', async (command) => {
    const output = await run(command);
    expect(output).not.toContain(SECRET);
    expect(output).toMatch(/refused: git (log|status|ls-files) \S+ is refused: git reads the repository's history/);
  });

  it('still runs git status and git log without patches', async () => {
    expect(await run('git log --oneline')).toContain('add files');
    expect(await run('git status --short')).not.toContain(SECRET);
    // Names and line counts of what each commit changed, as `git status` names changed paths.
    expect(await run('git log --stat --oneline')).toMatch(/secrets\/prod\.key \| 1 \+/);
  });
});
