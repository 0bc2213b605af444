import { describe, expect, it } from 'vitest';
import { allowedCases, refusedCases, spellingsOf } from '../test-support/option-spellings.js';
import type { PathConfinement } from './command-verdict.js';
import { judgeCommand } from './judge-command.js';
import { CONFIG_GUARDED, gitOrderProblem, linkOrderProblem, NEVER, OPAQUE, READERS, WRAPPERS } from './program-rules.js';
import { ANY_PROGRAM_OPTIONS } from './programs/any-program.js';
import { PROGRAM_SPECS, programSpec } from './programs/index.js';
import type { RefusalClass } from './programs/program-spec.js';
import { DEFAULT_SHELL_ALLOW } from './shell-policy.js';

const ANY_PATH: PathConfinement = { root: '/workspace', check: () => undefined, checkTree: () => undefined };

// The lists program-rules.ts kept by hand before the specs; the derived lists must equal them.
const PREVIOUS_NEVER = [
  ...['sudo', 'su', 'doas', 'pkexec', 'eval', 'exec', 'source', '.', 'bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh', 'builtin', 'trap'],
  ...['alias', 'unalias', 'set', 'export', 'declare', 'typeset', 'readonly', 'local', 'enable', 'chroot', 'setsid', 'unshare', 'nsenter', 'read'],
  ...['mapfile', 'readarray', 'getopts', 'let', 'hash', 'shopt', 'ulimit', 'umask', 'kill', 'disown', 'wait', 'fc', 'history', 'complete', 'coproc'],
];
const PREVIOUS_READERS = [
  ...['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'rg', 'find', 'echo', 'printf', 'pwd', 'date', 'true', 'false', 'basename', 'dirname', 'realpath'],
  ...['stat', 'file', 'du', 'diff', 'sed', 'sort', 'cut', 'tr', 'seq', 'yes', 'which', 'cd', 'sleep', 'tree', 'git', 'export', 'assignment'],
];
const PREVIOUS_DEFAULT_ALLOW = [
  ...['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'rg', 'find', 'echo', 'printf', 'pwd', 'sort', 'uniq', 'cut', 'tr', 'diff', 'sed', 'date', 'true'],
  ...['false', 'basename', 'dirname', 'realpath', 'stat', 'file', 'du', 'tree', 'mkdir', 'touch', 'cp', 'sleep', 'seq', 'yes', 'which', 'cd'],
  ...['git status', 'git diff', 'git log', 'git show', 'git branch', 'git rev-parse', 'git ls-files', 'git blame', 'node --version'],
];

/** Every option that follows symbolic links, as `program option`: each needs generated tests. */
/** The options that make hard links (the sandbox refuses `link`/`linkat`): a second name outlives a later protection. */
const HARD_LINKING = ['cp -l'];

const LINK_FOLLOWING = [
  'ls -L',
  'grep -R',
  'rg -L',
  'find -L',
  'diff -r',
  'sed --follow-symlinks',
  'stat -L',
  'file -L',
  'du -L',
  'tree -l',
  'cp -L',
  'cp --keep-directory-symlink',
];

describe('program specs', () => {
  it('give each program one spec', () => {
    const names = PROGRAM_SPECS.map((spec) => spec.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('give every program of the default allowlist a spec, and derive the allowlist as it was', () => {
    expect(DEFAULT_SHELL_ALLOW).toEqual(PREVIOUS_DEFAULT_ALLOW);
    for (const entry of DEFAULT_SHELL_ALLOW) expect(programSpec(entry.split(' ')[0]!), entry).toBeDefined();
  });

  it('name each option once per program; an option every program refuses keeps its class where a program lists it', () => {
    const anyClass = new Map(ANY_PROGRAM_OPTIONS.flatMap((o) => o.names.map((name) => [name, o.refused] as const)));
    for (const spec of PROGRAM_SPECS) {
      for (const options of [spec.options, ...Object.values(spec.subcommands ?? {})]) {
        const names = options.flatMap((o) => o.names);
        expect(new Set(names).size, `${spec.name}: ${names.join(' ')}`).toBe(names.length);
      }
      const classes = new Map<string, RefusalClass | 'allowed'>();
      for (const o of [...spec.options, ...Object.values(spec.subcommands ?? {}).flat()]) {
        for (const name of o.names) {
          const seen = classes.get(name);
          if (seen !== undefined) expect(o.refused ?? 'allowed', `${spec.name} ${name}`).toBe(seen);
          classes.set(name, o.refused ?? 'allowed');
          if (anyClass.has(name)) expect(o.refused, `${spec.name} ${name}`).toBe(anyClass.get(name));
        }
      }
    }
  });

  it('refuse exactly these options, each with its class (a change here changes what may run)', () => {
    const refused = PROGRAM_SPECS.flatMap((spec) =>
      [['', spec.options] as const, ...Object.entries(spec.subcommands ?? {}).map(([sub, options]) => [` ${sub}`, options] as const)].flatMap(
        ([sub, options]) => options.filter((o) => o.refused).map((o) => `${spec.name}${sub} ${o.names.join(' ')}: ${o.refused}`),
      ),
    );
    expect(refused).toEqual([
      'ls -L --dereference: follows-links',
      'wc --files0-from: reads-name-list',
      'grep -R --dereference-recursive: follows-links',
      'rg -L --follow: follows-links',
      'rg --pre: runs-programs',
      'rg --pre-glob: runs-programs',
      'rg --hostname-bin: runs-programs',
      'rg -z --search-zip: runs-programs',
      'find -L -follow: follows-links',
      'find -exec -execdir -ok -okdir: runs-programs',
      'find -delete: deletes-files',
      'find -fprint -fprint0 -fls -fprintf: writes-files',
      'find -files0-from: reads-name-list',
      'printf -v: sets-variables',
      'sort -o --output: writes-files',
      'sort -T --temporary-directory: writes-files',
      'sort --compress-program: runs-programs',
      'sort --files0-from: reads-name-list',
      'diff -r --recursive: follows-links',
      'sed -i --in-place: writes-files',
      'sed --follow-symlinks: follows-links',
      'date -s --set: sets-clock',
      'stat -L --dereference: follows-links',
      'file -L --dereference: follows-links',
      'file -f --files-from: reads-name-list',
      'file -C --compile: writes-files',
      'file -z --uncompress: runs-programs',
      'file -Z --uncompress-noreport: runs-programs',
      'du -L --dereference: follows-links',
      'du --files0-from: reads-name-list',
      'tree -l --follow: follows-links',
      'tree -o --output: writes-files',
      'tree -R: writes-files',
      'cp -L --dereference: follows-links',
      'cp -l --link: makes-hard-links',
      'cp --keep-directory-symlink: follows-links',
      'cp -b: makes-names',
      'cp --backup: makes-names',
      'cp -S --suffix: makes-names',
      'git --output: writes-files',
      'git --ext-diff: runs-programs',
      'git --upload-pack --receive-pack --exec: runs-programs',
      'git --open-files-in-pager: runs-programs',
      'git --paginate: runs-programs',
      'git --config-env: chooses-repository',
      'git grep -O --open-files-in-pager: runs-programs',
      'env -i --ignore-environment -: drops-environment',
      'env -u --unset: drops-environment',
      'env -C --chdir: moves-elsewhere',
      'env -S --split-string: builds-commands',
    ]);
    expect(ANY_PROGRAM_OPTIONS.map((o) => `${o.names.join(' ')}: ${o.refused}`)).toEqual(['--files0-from --files-from -files0-from: reads-name-list']);
  });

  // What the program really receives: every spelling of each option (clustered, abbreviated, joined to its value) is
  // generated from the spec and must be refused, with the sandbox's reason (a link followed out, a second name made).
  it.for([
    ['follows-links', LINK_FOLLOWING],
    ['makes-hard-links', HARD_LINKING],
  ] as const)('refuse the %s options, each with generated tests in every spelling', ([refusal, expected]) => {
    const found = PROGRAM_SPECS.flatMap((spec) =>
      [...spec.options, ...Object.values(spec.subcommands ?? {}).flat()].filter((o) => o.refused === refusal).map((o) => `${spec.name} ${o.names[0]}`),
    );
    expect(found.sort()).toEqual([...expected].sort());
    for (const rule of expected) {
      const [program, option] = rule.split(' ') as [string, string];
      const spec = programSpec(program)!;
      const names = spec.options.find((o) => o.names.includes(option))!.names;
      const cases = refusedCases(spec).filter((c) => c.refusals.some((r) => r.class === refusal && names.includes(r.option!)));
      expect(cases.length, rule).toBeGreaterThanOrEqual(names.length);
      for (const c of cases) expect(judgeCommand(c.argv, { allow: [program] }, ANY_PATH).ok, c.argv.join(' ')).toBe(false);
    }
  });

  it('spell every allowed option so that the judge accepts it, but for a few long options spelled as a prefix of a refused one', () => {
    // The options every program refuses (--files0-from, --files-from) are matched by any prefix,
    // as they were before the specs: these spellings name other options of their programs.
    const refusedByPrefix = PROGRAM_SPECS.flatMap((spec) =>
      allowedCases(spec)
        .filter((c) => c.refusals.length > 0)
        .map((c) => `${spec.name} ${c.refusals[0]!.written ?? c.refusals[0]!.option}`),
    );
    expect([...new Set(refusedByPrefix.map((s) => s.split('=')[0]))].sort()).toEqual(
      [
        'cp --f',
        'cut --f',
        'cut --fi',
        'date --f',
        'date --fi',
        'date --fil',
        'date --file',
        'diff --f',
        'grep --file',
        'ls --fi',
        'ls --fil',
        'ls --file',
        'rg --file',
        'rg --files',
        'seq --f',
        'stat --fi',
        'stat --fil',
        'stat --file',
        'tail --f',
        'tree --files',
      ].sort(),
    );
  });
});

describe('lists derived from the specs', () => {
  it('equal the lists kept before', () => {
    expect([...NEVER].sort()).toEqual([...PREVIOUS_NEVER].sort());
    expect([...READERS].sort()).toEqual([...PREVIOUS_READERS].sort());
    expect(Object.keys(OPAQUE).sort()).toEqual(['parallel', 'watch', 'xargs']);
    expect(Object.keys(WRAPPERS).sort()).toEqual(['command', 'env', 'nice', 'nohup', 'timeout']);
    expect([...CONFIG_GUARDED]).toEqual(['git']);
  });

  it('are what the judge uses: never-allowed and opaque programs are refused, wrappers judged by their command', () => {
    for (const name of [...NEVER, ...Object.keys(OPAQUE)]) {
      const verdict = judgeCommand([name, 'x'], { allow: [name] }, ANY_PATH);
      expect(verdict.ok, name).toBe(false);
      if (name in OPAQUE) expect(verdict).toEqual({ ok: false, reason: OPAQUE[name] });
    }
    for (const name of Object.keys(WRAPPERS)) {
      const args = name === 'timeout' ? ['5', 'ls'] : ['ls'];
      expect(judgeCommand([name, ...args], { allow: ['ls'] }, ANY_PATH), name).toEqual({ ok: true, program: 'ls' });
      expect(judgeCommand([name, ...args.slice(0, -1), 'rm'], { allow: ['ls'] }, ANY_PATH).ok, name).toBe(false);
    }
  });
});

describe(gitOrderProblem, () => {
  it.for([
    [['ls', 'git'], undefined],
    [['export', 'assignment', 'sed', 'git'], undefined],
    [['git', 'touch'], undefined],
    [
      ['touch', 'git'],
      "'touch' runs before git in the same command line, and git's configuration is checked before the line runs; run git in a call of its own",
    ],
    [
      ['ls', 'cp', 'git', 'ls'],
      "'cp' runs before git in the same command line, and git's configuration is checked before the line runs; run git in a call of its own",
    ],
    [['uniq', 'git'], "'uniq' runs before git in the same command line, and git's configuration is checked before the line runs; run git in a call of its own"],
    [
      ['node', 'git', 'git'],
      "'node' runs before git in the same command line, and git's configuration is checked before the line runs; run git in a call of its own",
    ],
  ] as const)('%j: %s', ([programs, problem]) => {
    expect(gitOrderProblem(programs)).toBe(problem);
  });

  it('lets every reader run before git, and no other program', () => {
    for (const spec of PROGRAM_SPECS) expect(gitOrderProblem([spec.name, 'git']) === undefined, spec.name).toBe(READERS.has(spec.name));
  });
});

describe(linkOrderProblem, () => {
  const line = (...commands: string[][]) => commands.map((argv) => ({ argv, program: argv.find((word) => !['timeout', '5', 'env'].includes(word))! }));

  it.for([
    [
      ['cp', '-P', 'node_modules/@s/pkg', 'L'],
      ['cat', 'L/package.json'],
    ],
    [
      ['cp', '-a', 'src', 'dst'],
      ['ls', 'dst'],
    ],
    [['cp', '-rs', 'x', 'y'], ['cat']],
    [
      ['tail', '-F', 'L/x'],
      ['cp', '-P', 'a', 'L'],
    ],
    [
      ['timeout', '5', 'cp', '-rP', 'a', 'b'],
      ['cat', 'x'],
    ],
    [
      ['cp', '--no-dereference', 'a', 'L'],
      ['touch', 'L'],
    ],
    [
      ['cp', '--no-deref', 'a', 'L'],
      ['touch', 'L'],
    ],
    [
      ['cp', '-d', 'a', 'L'],
      ['cd', 'L'],
    ],
    [
      ['cp', '--recursive', 'a', 'L'],
      ['grep', '-r', 'x', 'L'],
    ],
    [
      ['mv', 'a', 'L'],
      ['cat', 'L/x'],
    ],
    [
      ['ln', '-s', '../..', 'L'],
      ['cat', 'L/etc/passwd'],
    ],
    [
      ['cp', '-P', 'a', 'L'],
      ['cp', '-P', 'b', 'M'],
    ],
  ])('refuses %j beside another command that opens paths', (commands) => {
    expect(linkOrderProblem(line(...commands))).toMatch(
      /symbolic links, which '[a-z]+' in the same line would go through after the line was judged; run it in a call of its own$/,
    );
  });

  it('names the option and the other program', () => {
    expect(linkOrderProblem(line(['cp', '-P', 'node_modules/@s/pkg', 'L'], ['cat', 'L/package.json']))).toBe(
      "cp -P copies or makes symbolic links, which 'cat' in the same line would go through after the line was judged; run it in a call of its own",
    );
  });

  it('refuses every spelling of every option that copies or makes links, beside a command that opens paths', () => {
    const cp = programSpec('cp')!;
    const spellings = cp.options.filter((option) => option.makesLinks).flatMap((option) => spellingsOf(cp, option));
    expect(spellings.length).toBeGreaterThan(20);
    for (const { how, words } of spellings) expect(linkOrderProblem(line(['cp', ...words, 'a', 'b'], ['cat', 'b/x'])), how).toBeDefined();
  });

  it.for([
    [['cp', '-P', 'a', 'L']],
    [
      ['cp', '-r', 'a', 'b'],
      ['echo', 'done'],
    ],
    [
      ['cp', 'a', 'b'],
      ['cat', 'b'],
    ],
    [
      ['cp', '-l', 'a', 'b'],
      ['cat', 'b'],
    ],
    [
      ['mkdir', '-p', 'x'],
      ['touch', 'x/y'],
    ],
    [['cp', '-p', 'a', 'b'], ['ls']],
  ])('lets %j run', (commands) => {
    expect(linkOrderProblem(line(...commands))).toBeUndefined();
  });
});
