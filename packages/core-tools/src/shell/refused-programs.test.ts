import { afterAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { loadBashParser } from './bash-parser.js';
import { analyzeCommand } from './command-analysis.js';
import { workspaceConfinement } from './confinement.js';
import { NEVER } from './program-rules.js';
import { REFUSED_PROGRAMS } from './refused-programs.js';

const ws = tempWorkspace({ 'notes.txt': 'x' });
afterAll(() => ws.cleanup());

/** The reason `command` is refused when every program in it is on the allowlist. */
async function reasonFor(command: string, allow: string[]): Promise<string | undefined> {
  const tree = (await loadBashParser()).parse(command)!;
  try {
    const verdict = analyzeCommand(tree.rootNode, { allow: [...allow, 'echo'] }, workspaceConfinement(ws.env.workspace));
    return verdict.ok ? undefined : verdict.reason;
  } finally {
    tree.delete();
  }
}

describe('REFUSED_PROGRAMS', () => {
  it('gives every program refused whatever the allowlist says a reason of its own', () => {
    for (const name of NEVER) expect(REFUSED_PROGRAMS.get(name), name).toBeDefined();
  });

  it.for([
    ['read x; echo done', 'read', /'read' is never allowed: it sets shell variables from its input/],
    ['mapfile lines', 'mapfile', /sets a shell array from its input/],
    ['sudo ls', 'sudo', /runs a command as another user/],
    ['eval ls', 'eval', /runs its arguments as a new command line/],
    ['bash -c ls', 'bash', /starts another shell/],
    ['set +P', 'set', /changes the shell's options, which the judge relies on/],
    ['shopt -s expand_aliases', 'shopt', /changes the shell's options/],
    ['alias ls=rm', 'alias', /defines aliases/],
    ['umask 000', 'umask', /permissions of every file created afterwards/],
    ['kill 1', 'kill', /sends signals/],
    ['setsid ls', 'setsid', /outside the process group/],
    ['pushd notes.txt', 'pushd', /directory stack, which the judge does not follow; use cd/],
    ['popd', 'popd', /directory stack/],
    ['compgen -C ls x', 'compgen', /runs commands and functions/],
    ['trap ls EXIT', 'trap', /on a signal or at exit/],
    ['export X=1', 'export', /'export' is not allowed: it sets environment variables/],
    ['nice -n 5 sh -c id', 'nice', /'sh' is never allowed: it starts another shell/],
  ] as const)('%s: %s is refused for what it does', async ([command, program, reason]) => {
    expect(await reasonFor(command, [program, 'sh'])).toMatch(reason);
  });

  it('judges a program named like an Object property as a program, not as a rule', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(await reasonFor(`${name} x`, []), name).toMatch(/is not in the shell allowlist/);
  });
});
