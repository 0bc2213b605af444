import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { analyzeCommand, type CommandVerdict } from './command-analysis.js';
import { bashSyntaxError } from './bash-syntax.js';
import { workspaceConfinement } from './confinement.js';
import { parseCommandLine } from './parse-command-line.js';
import type { ShellPolicy } from './shell-policy.js';

// The judge and bash must read the same thing. Each line below is judged as shell_exec judges it
// (bash -n, then the tree-sitter tree); an accepted line is then run *as written* by bash -P (as
// both backends run bash), in a workspace with symbolic links, with every program replaced by a
// recorder that logs its physical working directory and its argv. What the judge predicted for
// each command (its argv and `cwd`) must be exactly what bash did, and the script the judge
// rebuilt must parse in bash too. A refused line runs nothing, so any refusal is safe; the table
// of verdicts is kept in a file snapshot so each divergence's handling stays visible.

const ws = tempWorkspace({ 'notes.txt': 'n', 'a/b/f': 'x', '.pnpm/foo@1.0.0/node_modules/foo/index.js': '', 'd/e/f': '' });
const bin = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-parity-bin-')));
const LOG = path.join(bin, 'log');
beforeAll(() => {
  fs.symlinkSync('a/b', path.join(ws.root, 'L'));
  fs.mkdirSync(path.join(ws.root, 'node_modules'));
  fs.symlinkSync('../.pnpm/foo@1.0.0/node_modules/foo', path.join(ws.root, 'node_modules/foo'));
  fs.symlinkSync('..', path.join(ws.root, 'd/e/up'));
  fs.writeFileSync(
    path.join(bin, 'recorder'),
    // The record is made whole in a file of its own, then appended in one write: the stages of a
    // pipeline run at once, and several printf calls each would interleave.
    `#!/bin/sh\n{ printf '%s\\0' "$(pwd -P)" "\${0##*/}"; for a; do printf '%s\\0' "$a"; done; printf '\\n'; } > "$LOG.$$"\n/bin/cat "$LOG.$$" >> "$LOG"; /bin/rm -f "$LOG.$$"\n`,
    { mode: 0o755 },
  );
  for (const name of PROGRAMS) fs.symlinkSync('recorder', path.join(bin, name));
});
afterAll(() => {
  ws.cleanup();
  fs.rmSync(bin, { recursive: true, force: true });
});

/** Every word bash reserves, each also allowed as a program: only a divergence can refuse it. */
const RESERVED = [
  'done',
  'esac',
  'fi',
  'then',
  'in',
  'do',
  'time',
  '{',
  '}',
  '!',
  '[[',
  ']]',
  'coproc',
  'function',
  'select',
  'case',
  'if',
  'while',
  'until',
  'for',
  'elif',
  'else',
];
const PROGRAMS = ['ls', 'echo', 'pwd', 'cat', 'printf', 'true', ...RESERVED];
/** Builtins switched off in the recording shell, so their names reach the recorder. */
const BUILTINS = 'echo pwd printf true';
const POLICY: ShellPolicy = { allow: [...PROGRAMS, 'cd'], permit: ['glob', 'variable-expansion', 'redirection'] };
const VARIABLES = new Map([['X', '1']]);

const OPERATORS = [';', ';;', '&&', '||', '|', '\n', ';&', ';;&', '&', '|&', ' #', '\\\n', ' \\\n'];
const WORDS = [
  '$"x"',
  'x$"y"',
  'x$',
  '"$"',
  '"a$"',
  '$',
  "$'x'",
  'a\\\nb',
  'a\\ \\\nb',
  '"a\\\nb"',
  'a=~/x',
  'A=b:~',
  '_=~',
  "a='~'",
  'a#b',
  '#c',
  "'a'#b",
  '\\#a',
  '"$X"',
  '$X',
  '${X}y',
  '$PWD',
  '"$OLDPWD"',
  '$RANDOM',
  '{a,b}',
  '{}',
  'a}',
  '\\{',
  'notes*',
  '$((1))',
  '`true`',
  '$(true)',
  '!x',
  'a!b',
  '((x))',
  '"\\$x\\`y\\\\z\\"w"',
  '$[1]',
  '$@',
  '$#',
  '$1',
  '${#X}',
  '${X:-y}',
  'a\u00a0b',
  'a\vb',
  'a\fb',
  '*',
  '.*',
  'a/*',
  '*/f',
  '[n]otes.txt',
  'notes.tx?',
  'L/*',
  'd/e/up/*',
  '\\*',
  '"*"',
  'n[o]tes.txt',
  '["n"]otes.txt',
  '[n"]"otes.txt',
  '[[:alpha:]]otes.txt',
  'L/../*',
  'node_modules/foo/../*',
  'd/e/up/../*',
];
const REDIRECTS = ['>&2', ">&'3'", '>&3', '2>&1', '>&-', '> out', '>&"-"', '<&0', '2>&1-', '<&notes.txt', '>& out'];
const CD_TARGETS = [
  'L/..',
  'L',
  'node_modules/foo/..',
  'node_modules/foo/../..',
  'node_modules/foo/../../..',
  'd/e/up/..',
  '-P L/..',
  '-- L/..',
  '-L L/..',
  '-PL L/..',
  '-e L',
  '-',
  "''",
  '.',
  'a/b/../..',
  'L/../..',
];

const LINES = [
  ...[...RESERVED, "'time'", '"done"', '\\esac', "'{'"].flatMap((w) => [w, `${w} ls`, `ls ${w}`, `ls; ${w}`, `ls && ${w} x`, `ls | ${w}`]),
  ...OPERATORS.flatMap((o) => [`ls ${o} pwd`, `ls${o}pwd`, `ls ${o}`, `${o} ls`]),
  ...WORDS.flatMap((w) => [`echo ${w}`, `echo ${w} end`, w]),
  ...REDIRECTS.flatMap((r) => [`ls ${r}`, `ls${r} x`]),
  ...CD_TARGETS.flatMap((t) => [`cd ${t} && pwd`, `cd ${t}; pwd; cd .; pwd`, `cd ${t} | pwd`, `command cd ${t}; pwd`]),
  // A relative `cd` is judged from every directory the shell may be in (an earlier `cd` may fail),
  // so these climb with absolute paths or stay below every start.
  'cd node_modules && cd foo/.. && pwd',
  'cd a && cd b && pwd && cd . && pwd',
  `cd node_modules/foo && pwd && cd ${ws.root}/L/.. && pwd`,
  `cd L && cd ${ws.root}/node_modules/foo/../../.. && pwd`,
  'cd d/e/up/e/up && pwd',
  'cd node_modules/foo/../../../.. && pwd',
  'ls &\\\n& pwd',
  'ls |\\\n| pwd',
  'ls >\\\n> out',
  'ls 2\\\n>&1',
  'ls \\\n\\\n pwd',
  'echo \\',
  'echo a\\\\b',
  "echo '\\'",
  'cat <<< hi',
  'cat <<<"$X"',
  'cat <<< ~',
  'cat <<< a=~',
  'cd node_modules/foo && pwd -L',
  'ls\r\npwd',
  'ls\n\npwd',
];

async function judge(command: string): Promise<CommandVerdict> {
  let tree;
  try {
    tree = await parseCommandLine(command);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  try {
    return analyzeCommand(tree.rootNode, POLICY, workspaceConfinement(ws.env.workspace), VARIABLES);
  } finally {
    tree.delete();
  }
}

/** What bash really runs for `command`, as written: each program's physical directory and argv. */
function bashRuns(command: string): Array<{ cwd: string; argv: string[] }> {
  fs.writeFileSync(LOG, '');
  spawnSync('/bin/bash', ['--noprofile', '--norc', '-P', '-c', `enable -n ${BUILTINS}; eval "$1"`, 'parity', command], {
    cwd: ws.root,
    env: { PATH: bin, LOG, HOME: '/nonexistent', LC_ALL: 'C', X: '1' },
    stdio: 'ignore',
    timeout: 10_000,
  });
  return fs
    .readFileSync(LOG, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [cwd, ...argv] = line.split('\0').slice(0, -1);
      return { cwd: cwd!, argv };
    });
}

const sorted = (runs: Array<{ cwd: string; argv: string[] }>) => runs.map((r) => JSON.stringify(r)).sort();

describe('the judge and bash read every line the same way', () => {
  const verdicts = new Map<string, CommandVerdict>();

  it.for([...new Set(LINES)])('%j', async (command) => {
    const verdict = await judge(command);
    verdicts.set(command, verdict);
    if (!verdict.ok) return;
    expect(await bashSyntaxError(verdict.script), verdict.script).toBeUndefined();
    const predicted = verdict.commands.filter((c) => !['cd', 'assignment', 'export'].includes(c.program)).map((c) => ({ cwd: c.cwd, argv: c.argv }));
    const runs = bashRuns(command);
    // Every recorder succeeds, so a command after `||` does not run; the stages of a pipeline log in any order.
    if (command.includes('||')) expect(predicted).toEqual(expect.arrayContaining(runs));
    else if (command.includes('|')) expect(sorted(runs)).toEqual(sorted(predicted));
    else expect(runs).toEqual(predicted);
  });

  it('keeps the table of verdicts', async () => {
    const table = [...verdicts].map(
      ([command, verdict]) => `${JSON.stringify(command)}\n  ${verdict.ok ? `accepted: ${JSON.stringify(verdict.script)}` : `refused: ${verdict.reason}`}`,
    );
    await expect(`${table.join('\n').replaceAll(ws.root, '<ws>')}\n`).toMatchFileSnapshot('__snapshots__/bash-parity.table.txt');
  });
});

describe('divergences between tree-sitter-bash and bash, each refused for what it is', () => {
  it.for([
    ['ls ;; pwd', /not valid bash: syntax error near unexpected token `;;'\./],
    ['ls && done', /not valid bash/],
    ['esac', /not valid bash/],
    ['time ls', /keyword, which times the pipeline/],
    ['ls | time cat', /keyword/],
    ['echo a\\\nb', /line continuation/],
    ['ls\\\n-la', /line continuation/],
    ['echo $"x"', /translated through the locale/],
    ['echo x$"y"', /translated through the locale/],
    ['echo $', /read differently by bash/],
    ['echo a=~/x', /bash expands the '~'/],
    ['echo PATHS=a:~', /bash expands the '~'/],
    ["ls >&'3'", /file descriptor/],
    ['ls >&3', /file descriptor/],
    ['ls >&"-"', /file descriptor/],
    ['cd -L L/..', /cd -L is not allowed: the shell resolves directories physically/],
    ['cd -', /'cd -' goes back/],
    ['cd L | pwd', /cd in a pipeline runs in a subshell/],
    ['command cd L', /only when written as the command itself/],
    ['echo $PWD', /bash sets \$PWD itself/],
    ['echo "$OLDPWD"', /bash sets \$OLDPWD itself/],
    ['echo }', /unquoted braces/],
    ['((1))', /arithmetic commands/],
    ['[[ -f x ]]', /conditional expressions \[\[/],
  ] as const)('%j', async ([command, reason]) => {
    const verdict = await judge(command);
    expect(verdict.ok, command).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it('reads a literal $ where bash does, and backslash-newline inside double quotes as nothing', async () => {
    for (const [command, argv] of [
      ['echo x$', ['echo', 'x$']],
      ['echo "a$"', ['echo', 'a$']],
      ['echo "a\\\nb"', ['echo', 'ab']],
      ['echo a \\\n b', ['echo', 'a', 'b']],
    ] as const) {
      const verdict = await judge(command);
      expect(verdict.ok && verdict.commands[0]!.argv, command).toEqual(argv);
    }
  });
});
