// Records shell_exec's verdicts over a large generated corpus of command lines, so a change to the
// judge can be compared with the verdicts before it (every verdict equal, or refused where it was
// accepted, never the other way round).
//
//   node tools/scripts/shell-verdict-corpus.mjs corpus <corpus.json>        build the command lines
//   node tools/scripts/shell-verdict-corpus.mjs record <corpus.json> <out>  judge them with the built packages
//   node tools/scripts/shell-verdict-corpus.mjs compare <before> <after>    list every verdict that changed
//   node tools/scripts/shell-verdict-corpus.mjs vocabulary <program> [sub]  the options its help lists
//
// The corpus is built from each program's option vocabulary: what its `--help` lists on this
// machine (when it is installed) and a fixed list of risky spellings, each spelled every way the
// program accepts it (alone, in clusters, glued and separate values, `--long=value`, every prefix),
// placed before and after operands, after `--`, as the value of another option, behind wrappers
// and in lines with git; then seeded random lines from the same words.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => path.join(root, 'packages/core-tools/dist', file);

const PROGRAMS = [
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'rg',
  'find',
  'echo',
  'printf',
  'pwd',
  'sort',
  'uniq',
  'cut',
  'tr',
  'diff',
  'sed',
  'date',
  'true',
  'false',
  'basename',
  'dirname',
  'realpath',
  'stat',
  'file',
  'du',
  'tree',
  'mkdir',
  'touch',
  'cp',
  'sleep',
  'seq',
  'yes',
  'which',
  'cd',
  'node',
  'npm',
  'tar',
];
const WRAPPERS = ['env', 'timeout', 'nice', 'nohup', 'command'];
const REFUSED_PROGRAMS = ['sudo', 'bash', 'sh', 'eval', 'exec', 'source', '.', 'xargs', 'parallel', 'watch', 'read', 'let', 'kill', 'export', 'set', 'chroot'];
const GIT_SUBCOMMANDS = ['status', 'diff', 'log', 'show', 'branch', 'rev-parse', 'ls-files', 'blame', 'grep', 'archive', 'fetch', 'config'];

/** Risky spellings tried with every program, whatever its help says. */
const RISKY = [
  '-L',
  '-R',
  '-l',
  '-r',
  '-a',
  '-o',
  '-T',
  '-s',
  '-S',
  '-b',
  '-v',
  '-z',
  '-f',
  '-i',
  '-u',
  '-C',
  '-O',
  '-p',
  '-P',
  '-H',
  '--follow',
  '--dereference',
  '--dereference-recursive',
  '--no-dereference',
  '--recursive',
  '--archive',
  '--files0-from',
  '--files-from',
  '--files',
  '--file',
  '--pre',
  '--pre-glob',
  '--hostname-bin',
  '--search-zip',
  '--output',
  '--compress-program',
  '--temporary-directory',
  '--set',
  '--backup',
  '--suffix',
  '--ext-diff',
  '--upload-pack',
  '--receive-pack',
  '--exec',
  '--config-env',
  '--open-files-in-pager',
  '--paginate',
  '--no-pager',
  '--git-dir',
  '--work-tree',
  '--split-string',
  '--chdir',
  '--ignore-environment',
  '--unset',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
  '-follow',
  '-files0-from',
  '-print',
  '-name',
];
const OPERANDS = ['notes.txt', 'src', '.', 'list', 'out-link', '.git/config', '-', '--x'];

/** Short and long options a `--help` text lists, with whether each takes a value. */
function helpVocabulary(program, args = ['--help']) {
  let text;
  try {
    text = execFileSync(program, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 5000 });
  } catch (error) {
    text = `${error.stdout ?? ''}${error.stderr ?? ''}`;
  }
  const shorts = new Map();
  const longs = new Map();
  for (const line of text.split('\n')) {
    const head = /^\s{1,12}(-.*?)(?:\s{2,}|$)/.exec(line)?.[1];
    if (!head) continue;
    // "Mandatory arguments to long options are mandatory for short options too": a value on any
    // spelling of the line is a value for all of them.
    const tokens = head.split(/,\s*/);
    const valued = tokens.some((token) => /^--?[\w-]+(\[?=|\s+<|\s+[A-Z]|\[)/.test(token) || /^-[A-Za-z0-9][A-Z]/.test(token));
    for (const token of tokens) {
      const long = /^--([A-Za-z0-9][\w-]*)/.exec(token);
      if (long) {
        longs.set(long[1], valued);
        continue;
      }
      const word = /^-([a-z][\w-]+)/.exec(token);
      if (word && !/^-[A-Za-z0-9][A-Z]/.test(token)) {
        longs.set(`-${word[1]}`, /\s+[A-Z]/.test(token));
        continue;
      }
      const short = /^-([A-Za-z0-9])/.exec(token);
      if (short) shorts.set(short[1], valued);
    }
  }
  return { shorts, longs };
}

function spellings(shorts, longs) {
  const out = [];
  const letters = [...shorts.keys()];
  for (const [letter, valued] of shorts) {
    out.push([`-${letter}`]);
    if (valued) out.push([`-${letter}`, 'x'], [`-${letter}x`], [`-${letter}L`], [`-${letter}--`], [`-${letter}`, '--', '-L']);
  }
  for (const a of letters) for (const b of letters) out.push([`-${a}${b}`]);
  for (let i = 0; i + 2 < letters.length; i++) out.push([`-${letters[i]}${letters[i + 1]}${letters[i + 2]}`]);
  for (const [name, valued] of longs) {
    const dashes = name.startsWith('-') ? '-' : '--';
    const full = `${dashes}${name.replace(/^-/, '')}`;
    out.push([full], [`${full}=x`]);
    if (valued) out.push([full, 'x'], [full, '--', '-L']);
    if (dashes === '--') for (let n = 3; n < full.length; n++) out.push([full.slice(0, n)], [`${full.slice(0, n)}=x`]);
  }
  for (const risky of RISKY) {
    out.push([risky], [`${risky}=x`], [risky, 'x']);
    if (risky.startsWith('--')) for (let n = 3; n < risky.length; n++) out.push([risky.slice(0, n)]);
  }
  return out;
}

/** A small seeded generator, so the corpus is the same on every run. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const quote = (word) => (/^[\w./=:,+%@-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
const line = (words) => words.map(quote).join(' ');

function buildCorpus() {
  const commands = new Set();
  const vocab = new Map();
  for (const program of [...PROGRAMS, ...WRAPPERS]) vocab.set(program, helpVocabulary(program));
  vocab.set('tree', {
    shorts: new Map([...'adlfxACDFJNQSXghipqrsuvRe'].map((c) => [c, false]).concat([...'LPIHTo'].map((c) => [c, true]))),
    longs: new Map([
      ['follow', false],
      ['output', true],
      ['fromfile', false],
      ['filelimit', true],
      ['charset', true],
      ['du', false],
      ['prune', false],
      ['gitignore', false],
      ['noreport', false],
      ['dirsfirst', false],
      ['sort', true],
    ]),
  });
  for (const sub of GIT_SUBCOMMANDS) vocab.set(`git ${sub}`, helpVocabulary('git', [sub, '-h']));

  for (const [program, { shorts, longs }] of vocab) {
    const name = program.split(' ');
    for (const spelled of spellings(shorts, longs)) {
      commands.add(line([...name, ...spelled, 'notes.txt']));
      commands.add(line([...name, 'notes.txt', ...spelled]));
      commands.add(line([...name, '--', ...spelled]));
      commands.add(line([...name, ...spelled]));
    }
    for (const [letter, valued] of shorts) {
      if (!valued) continue;
      for (const risky of RISKY) {
        commands.add(line([...name, `-${letter}`, risky, 'notes.txt']));
        commands.add(line([...name, `-${letter}`, '--', risky, 'notes.txt']));
      }
    }
    for (const operand of OPERANDS) commands.add(line([...name, operand]));
  }
  for (const sub of GIT_SUBCOMMANDS) for (const risky of RISKY) commands.add(line(['git', risky, sub]));
  for (const wrapper of WRAPPERS) {
    for (const risky of [...RISKY, '-n', '5', '-s', 'KILL', '-k', '--signal=KILL', '-p', 'A=1', '-']) {
      for (const inner of [['ls'], ['ls', '-L'], ['bash', '-c', 'id'], ['5', 'ls'], ['git', 'status'], ['xargs', 'ls']]) {
        commands.add(line([wrapper, risky, ...inner]));
        commands.add(line([wrapper, ...inner, risky]));
      }
    }
  }
  for (const program of REFUSED_PROGRAMS) commands.add(line([program, 'ls']));
  const programs = [...vocab.keys()];
  for (const first of [...programs, 'touch x', 'mkdir d', 'cp notes.txt y', 'uniq notes.txt z', 'export A=1']) {
    commands.add(`${first} && git status`);
    commands.add(`git log; ${first}`);
    commands.add(`${first} | git diff`);
  }

  // Trees holding a protected path, copied recursively; diff's --no-dereference where it is no option.
  for (const args of [
    ['-r', 'evil', 'dest'],
    ['-r', '--', '-evil', 'dest'],
    ['-r', '--', '-evil/.', '.'],
    ['--', '-r', 'evil', 'dest'],
    ['-a', '-t', 'dest', 'evil'],
    ['-tr', 'evil'],
  ])
    commands.add(line(['cp', ...args]));
  for (const args of [
    ['-r', '--no-dereference', 'src', 'src'],
    ['-r', '--no-d', 'src', 'src'],
    ['-r', '--n', 'src', 'src'],
    ['-r', '-x', '--no-dereference', 'src', 'src'],
    ['-r', '--', 'src', '--no-dereference'],
    ['-r', '--label', '--no-dereference', 'src', 'src'],
  ])
    commands.add(line(['diff', ...args]));

  const next = random(17);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const pool = [...RISKY, ...OPERANDS, 'x', '1', '--', '-e', '-n', '-t', '-k', '-d'];
  for (let i = 0; i < 20000; i++) {
    const program = pick(programs);
    const { shorts, longs } = vocab.get(program);
    const words = [...program.split(' ')];
    const count = 1 + Math.floor(next() * 5);
    for (let w = 0; w < count; w++) {
      const r = next();
      if (r < 0.3 && shorts.size > 0) words.push(`-${pick([...shorts.keys()])}${next() < 0.4 ? pick([...shorts.keys()]) : ''}`);
      else if (r < 0.5 && longs.size > 0) {
        const long = pick([...longs.keys()]);
        const full = long.startsWith('-') ? long : `--${long}`;
        words.push(next() < 0.5 ? full : full.slice(0, Math.max(3, Math.floor(next() * full.length))));
      } else words.push(pick(pool));
    }
    commands.add(line(words));
  }
  return [...commands];
}

async function record(commands) {
  const { loadBashParser } = await import(dist('shell/bash-parser.js'));
  const { analyzeCommand } = await import(dist('shell/command-analysis.js'));
  const { workspaceConfinement } = await import(dist('shell/confinement.js'));
  const { WorkspacePolicy } = await import(dist('workspace/workspace-policy.js'));
  const { DEFAULT_SHELL_POLICY } = await import(dist('shell/shell-policy.js'));
  const { gitOrderProblem } = await import(dist('shell/program-rules.js'));
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-corpus-')));
  try {
    fs.mkdirSync(path.join(ws, 'src'));
    fs.mkdirSync(path.join(ws, '--x'));
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'x\n');
    fs.writeFileSync(path.join(ws, 'src/a.ts'), 'a\n');
    fs.writeFileSync(path.join(ws, 'list'), 'notes.txt\0');
    fs.symlinkSync('/etc', path.join(ws, 'out-link'));
    for (const tree of ['evil', '-evil']) {
      fs.mkdirSync(path.join(ws, tree, '.git'), { recursive: true });
      fs.writeFileSync(path.join(ws, tree, '.git', 'config'), '[core]\n');
    }
    const confine = workspaceConfinement(new WorkspacePolicy({ root: ws }));
    const broad = { allow: [...PROGRAMS, ...REFUSED_PROGRAMS, 'git'], permit: ['glob'] };
    const parser = await loadBashParser();
    const verdicts = [];
    for (const [policyName, policy] of [
      ['default', DEFAULT_SHELL_POLICY],
      ['broad', broad],
    ]) {
      for (const command of commands) {
        const tree = parser.parse(command);
        let verdict;
        try {
          verdict = analyzeCommand(tree.rootNode, policy, confine);
        } finally {
          tree.delete();
        }
        const order = verdict.ok && verdict.commands.some((c) => c.program === 'git') ? gitOrderProblem(verdict.commands.map((c) => c.program)) : undefined;
        const ok = verdict.ok && order === undefined;
        verdicts.push({ policy: policyName, command, ok, reason: verdict.ok ? order : verdict.reason, script: verdict.ok ? verdict.script : undefined });
      }
    }
    return verdicts;
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

function compare(before, after) {
  const key = (v) => `${v.policy}\t${v.command}`;
  const later = new Map(after.map((v) => [key(v), v]));
  const looser = [];
  const stricter = [];
  const rewritten = [];
  let same = 0;
  for (const old of before) {
    const now = later.get(key(old));
    if (!now) throw new Error(`missing from the second run: ${key(old)}`);
    if (old.ok && !now.ok) stricter.push({ ...now, before: 'accepted' });
    else if (!old.ok && now.ok) looser.push({ ...now, before: old.reason });
    else if (old.ok && now.ok && old.script !== now.script) rewritten.push(now);
    else same++;
  }
  return { compared: before.length, same, stricter, looser, rewritten };
}

const [mode, first, second] = process.argv.slice(2);
if (mode === 'corpus') {
  const commands = buildCorpus();
  fs.writeFileSync(first, `${JSON.stringify(commands, null, 0)}\n`);
  console.log(`${commands.length} command lines written to ${first}`);
} else if (mode === 'vocabulary') {
  const { shorts, longs } = helpVocabulary(first, second ? [second, '-h'] : ['--help']);
  console.log(JSON.stringify({ shorts: Object.fromEntries(shorts), longs: Object.fromEntries(longs) }));
} else if (mode === 'record') {
  const verdicts = await record(JSON.parse(fs.readFileSync(first, 'utf8')));
  fs.writeFileSync(second, verdicts.map((v) => JSON.stringify(v)).join('\n') + '\n');
  console.log(`${verdicts.length} verdicts (${verdicts.filter((v) => v.ok).length} accepted) written to ${second}`);
} else if (mode === 'compare') {
  const read = (file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  const result = compare(read(first), read(second));
  console.log(`${result.compared} verdicts compared: ${result.same} equal, ${result.stricter.length} now refused, ${result.looser.length} now accepted`);
  for (const v of result.looser) console.log(`NOW ACCEPTED [${v.policy}] ${v.command}\n  was: ${v.before}`);
  for (const v of result.rewritten) console.log(`SCRIPT CHANGED [${v.policy}] ${v.command}`);
  if (process.argv.includes('--stricter')) for (const v of result.stricter) console.log(`NOW REFUSED [${v.policy}] ${v.command}\n  ${v.reason}`);
  process.exitCode = result.looser.length > 0 || result.rewritten.length > 0 ? 1 : 0;
} else {
  console.error('usage: shell-verdict-corpus.mjs corpus <corpus.json> | record <corpus.json> <out.jsonl> | compare <before.jsonl> <after.jsonl> [--stricter]');
  process.exitCode = 2;
}
