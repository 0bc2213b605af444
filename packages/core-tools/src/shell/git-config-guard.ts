import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { systemProgram } from '@toolwright/sandbox';
import { GIT_OVERRIDES } from './shell-config.js';

/**
 * Settings that make git run a program (or read another tree) and that `GIT_OVERRIDES` cannot
 * neutralise, because their names carry a driver or remote of the repository's choosing
 * (`filter.<x>.clean`, `diff.<x>.textconv`), or because they move git elsewhere (`core.worktree`).
 * Any key whose name ends in command, program, helper, hook, driver, editor, pager or path counts.
 */
export const RUNS_PROGRAM =
  /^(?:core\.(?:worktree|gitproxy|fsmonitor|hookspath)|diff\.external|filter\..+\.(?:clean|smudge|process)|pager\..+|remote\..+\.(?:uploadpack|receivepack|proxy|vcs)|include(?:if\..+)?\.path|.+\.[a-z]*(?:command|cmd|program|helper|hook|driver|textconv|editor|pager|difffilter|browser|path))$/;

const OVERRIDDEN = new Set(GIT_OVERRIDES.map(([key]) => key.toLowerCase()));

/**
 * Reads the configuration git will obey in each directory a command line may run it from (with the
 * same environment, so only the repository's own files count) and says why git must not run there:
 * a setting that runs a program, with the file that sets it. Undefined when git may run.
 */
export async function gitConfigGuard(cwds: readonly string[], env: Record<string, string>): Promise<string | undefined> {
  // The repository is the workspace's `.git` (GIT_DIR): a real directory, not a link or a
  // `gitdir:` file leading elsewhere.
  const gitDir = env.GIT_DIR;
  if (gitDir !== undefined) {
    const stat = fs.lstatSync(gitDir, { throwIfNoEntry: false });
    if (stat && !stat.isDirectory())
      return `git is not run here: the workspace's .git is ${stat.isSymbolicLink() ? 'a symbolic link' : 'a file (such as a gitdir: pointer)'}, which would lead git to another repository`;
  }
  for (const cwd of cwds) {
    const listing = await listConfig(cwd, env);
    if (typeof listing !== 'string') return listing.problem;
    const entries = listing.split('\0');
    for (let i = 0; i + 1 < entries.length; i += 2) {
      const origin = entries[i]!;
      const [key = ''] = entries[i + 1]!.split('\n');
      const name = key.toLowerCase();
      if (origin.startsWith('command line:') || OVERRIDDEN.has(name)) continue;
      if (RUNS_PROGRAM.test(name)) {
        return `git is not run here: the repository configuration sets '${key}' (${origin.replace(/^file:/, '')}), which makes git run a program or leave the workspace; remove that setting, or use the file tools`;
      }
    }
  }
  return undefined;
}

function listConfig(cwd: string, env: Record<string, string>): Promise<string | { problem: string }> {
  // The host runs this git itself: from the system's program folders (a class found by a tenth pass: helpers looked
  // up on the host's PATH, where npx puts the workspace's node_modules/.bin first), else on the command's PATH,
  // which holds no workspace folder (`safePath`).
  const git = systemProgram('git') ?? 'git';
  return new Promise((resolve) => {
    execFile(
      git,
      ['config', '--list', '--includes', '--show-origin', '--null'],
      { cwd, env, timeout: 5000, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = (error as NodeJS.ErrnoException).code;
        // git missing: the command itself will say so when it runs.
        if (code === 'ENOENT') return resolve('');
        // Outside any repository git lists only the (empty) global scopes and may exit 1 with nothing on stderr.
        if (stderr.trim() === '' && stdout === '') return resolve('');
        resolve({ problem: `git is not run here: its configuration could not be read (${(stderr.trim() || error.message).split('\n')[0]})` });
      },
    );
  });
}
