import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PathConfinement } from '../command-verdict.js';
import { judgeCommand } from '../judge-command.js';
import { describeRefusal } from './describe-refusal.js';
import { PROGRAM_SPECS, programSpec } from './index.js';
import { grammarFor } from './judge-options.js';
import { copiedTrees, judgeOptions, readArguments } from './judge-options.js';

const ANY_PATH: PathConfinement = { root: '/workspace', check: () => undefined, checkTree: () => undefined };
const judge = (argv: string[]) => judgeCommand(argv, { allow: [argv[0]!] }, ANY_PATH);
const refusal = (argv: string[]) => judgeOptions(argv[0]!, programSpec(argv[0]!), argv.slice(1));

describe(judgeOptions, () => {
  it.for([
    ['grep', '-e', '--', '-R', 'x', '.'],
    ['ls', '-I', '--', '-L', 'src'],
    ['ls', '--ignore', '--', '-L', 'src'],
    ['rg', '-e', '--', '--pre=touch', 'x'],
    ['cp', '-t', '--', '-L', 'a'],
    ['tree', '-I', '--', '-l'],
    ['stat', '-c', '--', '-L', 'x'],
    ['du', '--exclude', '--', '-L', 'src'],
    ['sort', '-k', '--', '-o', 'out', 'x'],
  ])('reads a -- that is an option value as the value, so the options after it are still judged: %j', (argv) => {
    expect(refusal(argv)).toBeDefined();
  });

  // Found by a red-team pass: `diff -L -- -r` (-L was missing from diff's grammar) ran a recursive diff. Any option
  // the grammar does not know may take `--` as its value, after which the program reads the rest as options.
  it('judges the options after a -- that follows an option the grammar does not know, for every program (property)', () => {
    const cases = PROGRAM_SPECS.filter((spec) => spec.syntax === 'getopt' && spec.role !== 'wrapper').flatMap((spec) =>
      (spec.options ?? []).filter((option) => option.refused && !option.unless).flatMap((option) => option.names.map((name) => ({ spec, name }))),
    );
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.stringMatching(/^[a-z]{2,8}$/), fc.boolean(), ({ spec, name }, letters, long) => {
        const grammar = grammarFor(spec, []);
        const shortName = [...'abcdefghijkmnopqrstuvwxyzABCDEFGHIJKMNOPQRSTUVWXYZ'].find((c) => !grammar.byName.has(`-${c}`));
        const unknown = long || shortName === undefined ? `--zz${letters}` : `-${shortName}`;
        fc.pre(!grammar.longNames.some((known) => known.startsWith(unknown)));
        const argv = [spec.name, unknown, '--', name, 'x'];
        expect(refusal(argv), argv.join(' ')).toMatchObject({ program: spec.name });
      }),
    );
  });

  it.for([
    ['diff', '-L', '--', '-r', 'a', 'b'],
    ['diff', '--label', '--', '-r', 'a', 'b'],
    ['ls', '--zzz', '--', '-L', 'src'],
  ])('refuses %j: the -- is an option value, not the end of the options', (argv) => {
    expect(refusal(argv)).toBeDefined();
  });

  // Found by a red-team pass: `git diff --no-index --src-prefix -- --output=/x a b` — git took `--` as the prefix and
  // wrote to /x, while the judge checked `--output=/x` as a file name in the workspace.
  it.for([
    ['head', '--', '--x=/etc/passwd'],
    ['cat', '-A', '--', '--output=/tmp/x'],
    ['git', 'diff', '--no-index', '--src-prefix', '--', '--output=/tmp/x', 'a', 'b'],
  ])('judges a word after -- that looks like an option both as a path and as an option with its value: %j', (argv) => {
    const outside: PathConfinement = {
      root: '/workspace',
      check: (word) => (word.startsWith('/') && !word.startsWith('/workspace/') ? 'it is outside the workspace' : undefined),
      checkTree: () => undefined,
    };
    expect(judgeCommand(argv, { allow: [argv[0]!] }, outside)).toMatchObject({ ok: false });
  });

  // Found by a red-team pass: tree's own parser takes a short option's value from the next word and reads on in the
  // cluster, so `tree -Lo 1 out.txt` is `-L 1 -o out.txt` and wrote out.txt; read as getopt, `o` was -L's value.
  it('reads every letter of a tree cluster as an option, values from the words after it (property)', () => {
    const flagLetters = [...'adfxACDFJNQSXghinpqrstuvcU'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...flagLetters, 'L', 'P', 'I', 'H', 'T'), { maxLength: 5 }),
        fc.array(fc.constantFrom(...flagLetters, 'L', 'P', 'I', 'H', 'T'), { maxLength: 5 }),
        fc.constantFrom('o', 'R', 'l'),
        (before, after, refused) => {
          const values = [...before, ...after].filter((letter) => 'LPIHT'.includes(letter)).map(() => '1');
          const argv = ['tree', `-${before.join('')}${refused}${after.join('')}`, ...values, ...(refused === 'o' ? ['out.txt'] : []), 'src'];
          expect(refusal(argv), argv.join(' ')).toMatchObject({ program: 'tree', option: `-${refused}` });
        },
      ),
    );
  });

  it("gives every option of a tree cluster the cluster's own index, whatever values it takes from the words after it", () => {
    const read = readArguments(programSpec('tree'), ['-LPa', '2', '*.c', 'src']);
    expect(read.options.map(({ index, name, value }) => [index, name, value])).toEqual([
      [0, '-L', '2'],
      [0, '-P', '*.c'],
      [0, '-a', undefined],
    ]);
    expect(read.operands).toEqual([3]);
  });

  it.for([
    ['tree', '-L', '2', 'src'],
    ['tree', '-aL', '2'],
    ['tree', '-LI', '2', '*.o', 'src'],
  ])('still runs %j, whose values come from the words after the cluster', (argv) => {
    expect(refusal(argv)).toBeUndefined();
  });

  // Found by a red-team pass: GNU date sets the clock from an operand that is not a +FORMAT, with no -s.
  it.for([
    ['date', '010100002030'],
    ['date', '-u', '0101'],
    ['date', '--', '0101'],
    ['date', '-d', '@0', '0101'],
    ['date', '+%F', '0101'],
  ])('refuses %j: an operand that is not a +FORMAT sets the clock', (argv) => {
    expect(refusal(argv)).toMatchObject({ program: 'date', class: 'sets-clock' });
  });

  it('refuses every generated time operand, before or after options and --, and runs every +FORMAT (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{4,12}(\.[0-9]{2})?$/),
        fc.constantFrom([], ['-u'], ['--'], ['-d', '@0'], ['-u', '--']),
        fc.stringMatching(/^\+[%a-zA-Z :-]{0,8}$/),
        (time, before, format) => {
          expect(refusal(['date', ...before, time])).toMatchObject({ program: 'date', class: 'sets-clock' });
          expect(refusal(['date', ...before.filter((word) => word !== '--'), format])).toBeUndefined();
        },
      ),
    );
  });

  it.for([['date'], ['date', '+%F'], ['date', '-u', '+%s'], ['date', '-d', '@0', '+%F'], ['date', '-d', 'next week'], ['date', '-Iseconds']])(
    'still runs %j',
    (argv) => {
      expect(refusal(argv)).toBeUndefined();
    },
  );

  // Found by a red-team pass: the judge let `mkdir -m 4777` through, which the sandbox's seccomp filter then refused.
  it.for([
    ['mkdir', '-m', '4777', 'd'],
    ['mkdir', '-m4755', 'd'],
    ['mkdir', '--mode=g+w,o+w', 'd'],
    ['mkdir', '--mode', 'u+s', 'd'],
    ['mkdir', '-pm', '777', 'a/b'],
    ['mkdir', '-m', 'a=rwx', 'd'],
    ['mkdir', '-m', 'g=u', 'd'],
    ['mkdir', '-m', 'u+s,u=rwx', 'd'],
    ['mkdir', '-m', '004777', 'd'],
    ['mkdir', '-m', '755', '-m', '777', 'd'],
  ])('refuses %j: a mode with a set-ID or group/others write bit', (argv) => {
    expect(refusal(argv)).toMatchObject({ program: 'mkdir', class: 'loose-mode' });
    expect(describeRefusal(refusal(argv)!)).toContain("set-ID bit or the group's or others' write bit");
  });

  it.for([
    ['mkdir', '-m', '755', 'd'],
    ['mkdir', '-m', '0700', 'd'],
    ['mkdir', '-pm', 'u=rwx,go=rx', 'a/b'],
    ['mkdir', '--mode=go-w', 'd'],
    ['mkdir', '-m', 'go-w,u+t', 'd'],
    ['mkdir', '-p', 'd'],
  ])('still runs %j', (argv) => {
    expect(refusal(argv)).toBeUndefined();
  });

  it('never lets through a symbolic mode that GNU mkdir gives a set-ID or group/others write bit, whatever the mask (generated, against mkdir)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-modes-'));
    const clause = fc
      .tuple(
        fc.stringMatching(/^[ugoa]{0,2}$/),
        fc.array(fc.tuple(fc.constantFrom('+', '-', '='), fc.oneof(fc.stringMatching(/^[rwxXst]{0,3}$/), fc.constantFrom('u', 'g', 'o'))), {
          minLength: 1,
          maxLength: 2,
        }),
      )
      .map(([who, actions]) => who + actions.map(([op, perms]) => op + perms).join(''));
    const modes = [...new Set(fc.sample(fc.array(clause, { minLength: 1, maxLength: 3 }), 250).map((clauses) => clauses.join(',')))];
    try {
      // One shell makes them all, under the sandbox's mask (go-w) and under none; the judge may refuse more than mkdir
      // makes loose, never less.
      fs.writeFileSync(path.join(dir, 'modes.txt'), `${modes.join('\n')}\n`);
      const script =
        'for mask in 022 0; do mkdir m$mask; (cd m$mask; umask $mask; i=0; while IFS= read -r m; do i=$((i+1)); mkdir -m "$m" $i 2>/dev/null; done < ../modes.txt); done; stat -c "%a %n" m*/*';
      const made = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8' }).stdout.trim().split('\n');
      expect(made.length).toBeGreaterThan(modes.length / 2);
      const missed = made
        .map((line) => /^(\d+) m\d+\/(\d+)$/.exec(line)!)
        .map(([, given, index]) => ({ given: parseInt(given!, 8), mode: modes[Number(index) - 1]! }))
        .filter(({ given, mode }) => (given & 0o6022) !== 0 && refusal(['mkdir', '-m', mode, 'd'])?.class !== 'loose-mode')
        .map(({ given, mode }) => `${mode} gave ${given.toString(8)}`);
      expect(missed).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.for([
    ['diff', '-q', '--', '-r', 'a'],
    ['ls', '-l', '--', '-L'],
  ])('still reads %j after a known flag as the end of the options', (argv) => {
    expect(refusal(argv)).toBeUndefined();
  });

  it.for([
    ['grep', '--', '-R', 'x', '.'],
    ['ls', '-I', '*.o', '--', '-L'],
    ['cp', '--', '-L', 'a', 'b'],
    ['printf', '%s\\n', '-v'],
    ['printf', '--', '-v'],
    ['echo', 'hi', '-v'],
  ])('reads words after the end of the options as operands: %j', (argv) => {
    expect(refusal(argv)).toBeUndefined();
  });

  it.for([
    ['grep', '-e', '-R', 'x'],
    ['ls', '-I', '-L', 'src'],
  ])('refuses a refused option even where it is the value of the option before it: %j', (argv) => {
    expect(refusal(argv)).toMatchObject({ class: 'follows-links', option: argv[2] });
  });

  it.for([
    ['diff', '-r', '--no-dereference', 'a', 'b'],
    ['diff', '--no-dereference', '-rq', 'a', 'b'],
    ['diff', '-r', '--no-d', 'a', 'b'],
    ['diff', 'a', 'b', '--recursive', '--no-dereference'],
  ])('accepts a recursive diff with --no-dereference given as an option: %j', (argv) => {
    expect(refusal(argv)).toBeUndefined();
  });

  it.for([
    ['diff', '-r', '-x', '--no-dereference', 'a', 'b'],
    ['diff', '-r', '--', 'a', '--no-dereference'],
    ['diff', '-r', '--no', 'a', 'b'],
    ['diff', '-r', 'a', 'b'],
  ])('refuses a recursive diff where --no-dereference is a value, an operand or ambiguous: %j', (argv) => {
    expect(refusal(argv)).toEqual({ program: 'diff', class: 'follows-links', option: '-r' });
  });

  it('refuses env assignments anywhere after env, and says so', () => {
    for (const argv of [
      ['env', 'A=1', 'ls'],
      ['env', 'ls', 'A=1'],
    ])
      expect(judge(argv)).toEqual({ ok: false, reason: 'env A=1 sets environment variables for the command, which is not allowed' });
  });

  it("words a prefix and a cluster with the option's full name", () => {
    expect(judge(['sort', '--compress-prog=gzip', 'x'])).toEqual({
      ok: false,
      reason: describeRefusal({ program: 'sort', class: 'runs-programs', option: '--compress-program', written: '--compress-prog=gzip' }),
    });
    expect(judge(['ls', '-laL'])).toEqual({ ok: false, reason: 'ls -laL (-L) follows symbolic links, which could read outside the workspace' });
    expect(judge(['cp', '-L', 'a', 'b'])).toEqual({ ok: false, reason: 'cp -L follows symbolic links, which could read outside the workspace' });
  });
});

describe('judgeOptions: git', () => {
  it.for([
    ['-c', 'core.pager=id', 'log'],
    ['-C', '/tmp', 'status'],
    ['--git-dir=/tmp/x', 'status'],
    ['--work-tree=/', 'status'],
    ['--exec-path=/tmp', 'log'],
    ['--namespace=x', 'log'],
    ['--bare', 'log'],
    ['-p', 'log'],
    ['--super-prefix=x', 'log'],
    ['--foo'],
    ['--no-pager', '-c', 'x=y', 'log'],
  ])('refuses git options before the subcommand but the plain ones: %j', (args) => {
    expect(refusal(['git', ...args])).toMatchObject({ class: 'chooses-repository' });
  });

  it.for([
    ['--paginate', 'log'],
    ['--config-env=core.pager=X', 'log'],
    ['log', '--output=x'],
    ['diff', '--ext-diff'],
    ['grep', '-O', 'x'],
    ['grep', '-iOvim', 'x'],
    ['grep', '--open-files-in-pager=vim', 'x'],
  ])('refuses options that run programs, write files or choose configuration: %j', (args) => {
    expect(refusal(['git', ...args])).toBeDefined();
  });

  it.for([
    ['--no-pager', 'log'],
    ['-P', 'log', '-p'],
    ['--version'],
    ['--no-optional-locks', '--literal-pathspecs', '--no-replace-objects', 'status'],
    ['diff', '-O', 'order.txt'],
    ['branch'],
    ['branch', '-a'],
    ['branch', '-vv', '--no-color'],
    ['branch', '--list', 'feat*'],
    ['branch', '--contains', 'HEAD'],
    ['branch', '--format=%(refname)'],
  ])('accepts plain global options and listing forms of git branch: %j', (args) => {
    expect(refusal(['git', ...args])).toBeUndefined();
  });

  it.for([
    ['branch', 'new'],
    ['branch', '-d', 'x'],
    ['branch', '-m', 'a', 'b'],
    ['branch', '--edit-description'],
    ['--no-pager', 'branch', '-a'],
  ])('refuses other forms of git branch (with a global option first, only --list forms): %j', (args) => {
    expect(refusal(['git', ...args])).toEqual({ program: 'git', class: 'changes-repository' });
  });
});

describe(copiedTrees, () => {
  const refusesEvil: PathConfinement = { ...ANY_PATH, checkTree: (value) => (value.includes('evi') ? 'it holds .git' : undefined) };
  const copy = (args: string[]) => judgeCommand(['cp', ...args], { allow: ['cp'] }, refusesEvil);

  it.for([
    ['-r', 'evil', 'dest'],
    ['-R', 'evil', 'dest'],
    ['-a', 'evil', 'dest'],
    ['-vr', 'evil', 'dest'],
    ['-rT', 'evil', 'dest'],
    ['--recursive', 'evil', 'dest'],
    ['--rec', 'evil', 'dest'],
    ['--archive', 'evil', 'dest'],
    ['--arch', 'evil', 'dest'],
    ['-t', 'dest', '-r', 'evil'],
    ['evil', 'dest', '-r'],
    ['-r', '--', '-evil', 'dest'],
    ['--', '-r', 'evil', 'dest'],
    // --path is cp's hidden alias of --parents, which the grammar does not know: it reads on past the --.
    ['-r', '--path', '--', '-evi', 'dest'],
  ])('checks every source of a recursive copy, -- ones too: cp %j', (args) => {
    expect(copy(args)).toMatchObject({ ok: false, reason: expect.stringMatching(/^cp would copy '-?evil?': it holds \.git$/) });
  });

  it('refuses a source past --path that reads as options when one of them is refused: cp -r --path -- -evil dest', () => {
    expect(copy(['-r', '--path', '--', '-evil', 'dest'])).toMatchObject({ ok: false, reason: expect.stringMatching(/^cp -evil \(-l\) makes hard links/) });
  });

  it.for([
    ['evil', 'dest'],
    ['-t', 'r', 'evil'],
    ['-Sr', 'evil', 'dest'],
  ])('copies no tree without a recursive option: cp %j', (args) => {
    expect(copiedTrees(programSpec('cp'), args)).toBeUndefined();
  });
});
