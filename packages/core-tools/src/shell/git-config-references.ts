import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HELPER_ENV, systemProgram } from '@toolwright/sandbox';
import { CoreToolError } from '../core-tool-error.js';
import { RUNS_PROGRAM } from './git-config-guard.js';
import { readPlainFile } from '../workspace/plain-file.js';
import { readNames } from '../workspace/walk.js';
import { lstatOrUndefined } from './links-on-the-way.js';

/** A path a repository's configuration has git read configuration from, or run. */
export interface GitConfigReference {
  /** Absolute, spelled as the configuration names it (not resolved through links). */
  path: string;
  kind: 'directory' | 'file';
  /** What names it, for messages: `core.hookspath in /ws/.git/config`. */
  setting: string;
}

/** How deep includes are followed: git's own limit. */
const MAX_INCLUDE_DEPTH = 10;
/**
 * Most configuration files one repository's configuration may have read (its own, the user's, what they include):
 * past it the command is refused. Each is read once however often it is included (a thirteenth pass had a `config`
 * include itself twelve times, and the host followed 10^12 includes until its heap ran out).
 */
export const MAX_CONFIG_FILES = 256;
/** Largest configuration file read; a larger one counts as unreadable (git itself would read it). */
const MAX_CONFIG_BYTES = 1024 * 1024;
/**
 * Most words of settings that run programs and of hooks one repository's configuration may have looked at, paths
 * it may name, and other users' homes (`~name/`) the user database is asked for: all of it is done on the host while
 * every other command waits. A fourteenth pass wrote an alias of 90,000 `~name/x` words, and each asked the user
 * database in turn: the next command waited 204 s. Past a bound the command is refused, naming the repository.
 */
export const CONFIG_WORK_BOUNDS = { words: 20_000, paths: 4096, userLookups: 8 } as const;

/** What the configuration being read has cost so far (`CONFIG_WORK_BOUNDS`); set afresh for each repository. */
let work = { dotGit: '', words: 0, userLookups: 0 };

function overBound(what: string): CoreToolError {
  return new CoreToolError(
    'sandbox_unavailable',
    `Shell commands cannot run: the configuration of the repository at '${work.dotGit}' has ${what}, too many to check for what it has git run. Shorten its settings or hooks, or remove the repository.`,
  );
}
const INCLUDE = /^include(?:if\..+)?\.path$/;
/** Folders git runs or copies programs from, relative to the top of the work tree. */
const DIRECTORIES = /^(?:core\.hookspath|init\.templatedir)$/;
/**
 * Settings that run a program besides those `RUNS_PROGRAM` names (`alias.*` and `submodule.*.update` with `!` too):
 * the third review found `imap.tunnel`, `instaweb.httpd` and `sendemail.<identity>.smtpServer` missing.
 */
const MORE_PROGRAMS = /^(?:core\.askpass|sendemail\.(?:.+\.)?smtpserver|imap\.tunnel|instaweb\.httpd)$/;
/** Cuts a command into words (quotes, operators and `name=` assignments apart). */
const WORD_BREAKS = /[\s;&|()<>'"`=]+/;

/** Settings of configuration files read before, by file, kept while the file's status is the same. */
const readBefore = new Map<string, { stamp: string; value: ReadonlyArray<readonly [string, string]> | undefined }>();
/** Hooks' texts read before, the same way. */
const hookTexts = new Map<string, { stamp: string; value: string | undefined }>();

/**
 * Every path the configuration of the repository at `dotGit` (a `.git` folder, or a `.git` file's
 * `gitdir:`) has git read or run: its configuration files as they really are (a `config` that is a
 * link), every file `include.path` and `includeIf.*.path` name whatever their condition (and what
 * those include), the hooks folder `core.hooksPath` names and `init.templateDir`, the programs and
 * scripts of settings that run one (`core.fsmonitor`, `filter.<x>.clean`, `alias.x = !...`; each word
 * spelled as a path, or naming an entry at the top of the work tree), and what the hooks that are
 * links lead to. Relative paths are resolved as git does: includes from their file's folder, the rest
 * from the top of the work tree (where git runs them). The configuration is read with the system's git
 * (none there: nothing is found).
 */
export function gitConfigReferences(
  dotGit: string,
  mayRead: (file: string) => boolean = () => true,
  inWorkspace: (file: string) => boolean = () => false,
): GitConfigReference[] {
  work = { dotGit, words: 0, userLookups: 0 };
  const found = collectReferences(dotGit, mayRead, inWorkspace);
  if (found.length > CONFIG_WORK_BOUNDS.paths) throw overBound(`settings and hooks naming more than ${CONFIG_WORK_BOUNDS.paths} paths`);
  return found;
}

function collectReferences(dotGit: string, mayRead: (file: string) => boolean, inWorkspace: (file: string) => boolean): GitConfigReference[] {
  const top = path.dirname(dotGit);
  const gitDir = repositoryOf(dotGit);
  if (gitDir === undefined) return [];
  const common = commonDirectoryOf(gitDir);
  const found: GitConfigReference[] = [];
  let hooks = path.join(common, 'hooks');
  // Whether the hooks folder was named by the user's or the system's configuration (read wherever it is), or else by the
  // repository's own (read only where `mayRead` allows).
  let hooksFromUser = false;
  const read = new Set<string>();
  const visit = (file: string, depth: number, fromUser: boolean) => {
    const real = realOrSelf(file);
    if (real !== file) found.push({ path: real, kind: 'file', setting: `the configuration file ${file}, a link` });
    if (read.has(real)) return;
    // What the repository's configuration includes from where a command may not look (outside the workspace, a denied
    // path) is not read: its words would come back as the names of placeholders a command sees (an independent review
    // read a private key's lines that way). The user's own configuration is read wherever it is.
    if (!fromUser && !mayRead(real)) return;
    read.add(real);
    if (read.size > MAX_CONFIG_FILES)
      throw new CoreToolError(
        'sandbox_unavailable',
        `Shell commands cannot run: the configuration of the repository at '${dotGit}' has git read more than ${MAX_CONFIG_FILES} files (through include.path), too many to check for what they have git run. Remove the includes, or the repository.`,
      );
    for (const [key, value] of settingsOf(real)) {
      const setting = `${key} in ${file}`;
      if (INCLUDE.test(key)) {
        const included = expand(value, path.dirname(file));
        if (included === undefined) continue;
        found.push({ path: included, kind: 'file', setting });
        if (depth < MAX_INCLUDE_DEPTH) visit(included, depth + 1, fromUser);
      } else if (DIRECTORIES.test(key)) {
        const folder = expand(value, top);
        if (folder === undefined) continue;
        found.push({ path: folder, kind: 'directory', setting });
        if (key === 'core.hookspath') {
          hooks = folder;
          hooksFromUser = fromUser;
        }
      } else if (runsProgram(key, value)) {
        for (const program of programPaths(value, top)) found.push({ ...program, setting });
      }
    }
  };
  // The user's and the system's configuration apply to every repository too (a twelfth pass: `~/.gitconfig` naming
  // `core.hooksPath = .githooks` had the user's next commit run a hook a command planted there).
  for (const file of userConfigurationFiles()) visit(file, 0, true);
  visit(path.join(common, 'config'), 0, false);
  visit(path.join(gitDir, 'config.worktree'), 0, false);
  // A hooks folder the user's configuration names outside the workspace is the user's, read whatever it holds; one in
  // the workspace (a relative `core.hooksPath` in a repository a command made) only as `mayRead` allows, hook by hook.
  const userHooks = hooksFromUser && !inWorkspace(realOrSelf(hooks));
  const readable = (file: string) => mayRead(file) || (userHooks && !inWorkspace(file));
  // Not even listed where it may not be read (how many entries a folder holds says something of it).
  const hooksReadable = readable(realOrSelf(hooks));
  if (hooksReadable) for (const target of linkedHooks(hooks)) found.push({ path: target, kind: 'file', setting: `a hook in ${hooks} that is a link` });
  // husky 9 points `core.hooksPath` at `.husky/_`, whose stubs run the hook of the same name in `.husky`.
  if (path.basename(hooks) === '_') found.push({ path: path.dirname(hooks), kind: 'directory', setting: `the folder of the hooks ${hooks} runs (husky)` });
  // A hook that runs a script of the work tree (`exec sh ./scripts/pre-commit.sh`, as pre-commit and lefthook write
  // them) runs what that script says: the scripts its hooks name by path are read-only too — those there, and those
  // missing, held by a placeholder (an independent review had a command write the missing `scripts/pre-commit.sh`,
  // which the user's next commit ran). Not what a hook names inside `node_modules`: held, it would fail every install
  // (a placeholder, a read-only mount, a link refusing every command), and what an install puts there is the install's.
  for (const folder of path.basename(hooks) === '_' ? [hooks, path.dirname(hooks)] : [hooks])
    for (const [hook, script] of readable(realOrSelf(folder)) ? hookScripts(folder, readable) : [])
      for (const named of programPaths(withoutComments(script), top, path.dirname(hook)))
        if (!inPackagesFolder(named.path)) found.push({ ...named, setting: `the hook ${hook}` });
  return found;
}

/**
 * A shell script without its comment lines (`#!/bin/sh`, `# run ./x first`). Only whole lines: a comment after a
 * command is read as words (held for nothing more than a placeholder), and telling a `#` in quotes or a here-document
 * from a comment takes the shell's own parsing (the review had an apostrophe in a here-document hide a later line).
 */
function withoutComments(script: string): string {
  return script.replace(/^[ \t]*#.*$/gm, '');
}

/** Whether `named` lies in a `node_modules` folder (what package installs make). */
function inPackagesFolder(named: string): boolean {
  return named.split(path.sep).includes('node_modules');
}

/** The configuration files git reads for every repository of this user: the user's (`GIT_CONFIG_GLOBAL`, `~/.gitconfig`, XDG) and the system's. */
function userConfigurationFiles(): string[] {
  const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  const global = process.env.GIT_CONFIG_GLOBAL;
  return ['/etc/gitconfig', ...(global ? [global] : [path.join(xdg, 'git', 'config'), path.join(os.homedir(), '.gitconfig')])];
}

/** Largest hook read for the scripts it runs; a larger one refuses the command (its scripts could not be found). */
const MAX_HOOK_BYTES = 64 * 1024;

/**
 * The hooks of a folder, each with its text (read again only when the file changed): plain files, and what hooks that
 * are links lead to (a hook kept in the work tree and linked from `.git/hooks` runs just the same), where `readable`
 * allows. A hook larger than `MAX_HOOK_BYTES` refuses the command: unread, the scripts it runs would not be held (an
 * independent review planted the script a 64 KiB hook ran on its last line).
 */
function hookScripts(folder: string, readable: (file: string) => boolean): Array<readonly [string, string]> {
  const scripts: Array<readonly [string, string]> = [];
  for (const entry of hooksIn(folder)) {
    if ((!entry.isFile() && !entry.isSymbolicLink()) || entry.name.endsWith('.sample')) continue;
    const file = path.join(folder, entry.name);
    const real = realOrSelf(file);
    if (!readable(real)) continue;
    let size: number;
    try {
      const stat = fs.statSync(real);
      if (!stat.isFile()) continue;
      size = stat.size;
    } catch {
      continue; // a link that leads nowhere runs nothing
    }
    if (size > MAX_HOOK_BYTES)
      throw new CoreToolError(
        'sandbox_unavailable',
        `Shell commands cannot run: the hook '${file}' of the repository at '${work.dotGit}' is larger than ${MAX_HOOK_BYTES / 1024} KiB, too large to check for the scripts it runs. Shorten it (have it run a script), or remove it.`,
      );
    const text = readByStatus(hookTexts, real, () => readPlainFile(real, MAX_HOOK_BYTES));
    if (text !== undefined) scripts.push([file, text]);
  }
  return scripts;
}

/** Most entries a hooks folder may hold: git's own hooks are a few dozen names. */
const MAX_HOOK_ENTRIES = 256;

/**
 * The entries of a hooks folder, read a batch at a time (none when it cannot be listed); more than
 * `MAX_HOOK_ENTRIES` refuses the command: every hook is read for the scripts it runs, and a folder of a
 * million names would hold every other command while it is listed.
 */
function hooksIn(folder: string): fs.Dirent[] {
  let listed: ReturnType<typeof readNames>;
  try {
    listed = readNames(folder, MAX_HOOK_ENTRIES);
  } catch {
    return [];
  }
  if (listed.more) throw overBound(`a hooks folder (${folder}) of more than ${MAX_HOOK_ENTRIES} entries`);
  return listed.names;
}

/** The repository a `.git` folder is, or a `.git` file's `gitdir:` names (relative to the file's folder). */
function repositoryOf(dotGit: string): string | undefined {
  try {
    const stat = fs.lstatSync(dotGit);
    if (stat.isDirectory()) return dotGit;
    if (!stat.isFile()) return undefined;
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readPlainFile(dotGit, 4096) ?? '');
    return match ? spelledFrom(path.dirname(dotGit), match[1]!) : undefined;
  } catch {
    return undefined;
  }
}

/** A linked work tree's repository keeps its configuration and hooks in the main one (`commondir`). */
function commonDirectoryOf(gitDir: string): string {
  try {
    const common = (readPlainFile(path.join(gitDir, 'commondir'), 4096) ?? '').trim();
    return common === '' ? gitDir : spelledFrom(gitDir, common);
  } catch {
    return gitDir;
  }
}

function runsProgram(key: string, value: string): boolean {
  if (key.startsWith('alias.') || /^submodule\..+\.update$/.test(key)) return value.trimStart().startsWith('!');
  return key !== 'core.worktree' && (RUNS_PROGRAM.test(key) || MORE_PROGRAMS.test(key));
}

/** Programs whose next word is the script they run (`sh tools/fsmon.sh`). */
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'fish',
  'node',
  'deno',
  'bun',
  'python',
  'python3',
  'perl',
  'ruby',
  'php',
  'exec',
  'source',
  '.',
  'npx',
  'tsx',
  'ts-node',
]);

/** A script's file name: an interpreter's missing argument spelled so is held (`sh hook.sh`, `node check.mjs`). */
const SCRIPT_FILE = /^[^/]+\.[A-Za-z0-9]{1,6}$/;
/** Commands whose next word is a folder the rest of the line runs in (`cd scripts && ./x.sh`). */
const CHANGES_FOLDER = new Set(['cd', 'pushd']);

/**
 * The words of a command (a setting that runs one, or a hook's text) that are workspace paths it may run or read: every
 * word spelled with a `/` (`./x`, `../x`, `/x`, `~/x`, `scripts/x.sh`, wherever it stands — after `env`, `nice`,
 * `timeout 9`, `if`, `!`, `A=1` or any other wrapper, as an argument a program runs in turn: telling which words a
 * script runs is the shell's own parsing, and an independent review found a dozen spellings a reading by position
 * missed), taken from the top of the work tree and from each folder an earlier `cd` went to; and the script an
 * interpreter runs (past its options) when it names an entry there or has a file's extension (`sh -e hook.sh`). A
 * folder is not held: a program given one (`eslint src/`) runs nothing of its own there. A word without a `/` anywhere else runs nothing of the
 * workspace: a program is found on PATH, not in the work tree (so `npm test` leaves the folder `test` alone). Words
 * are read as the shell joins them: quotes removed (`./s"c/x.sh"` is `./sc/x.sh`), continued lines joined. `from`
 * (a hook's folder) also resolves the relative words from there, as a hook that finds its scripts beside itself does
 * (`"$(dirname "$0")/../../scripts/x.sh"`, a Node hook's `require("../../scripts/x")`). Over-approximated on purpose:
 * a word like `origin/main` is held too (a placeholder while commands run, if missing). A word made at run time
 * (`$VAR`, `%f`, a glob), an option or a URL is not followed.
 */
function programPaths(command: string, top: string, from?: string): Array<{ path: string; kind: 'file' }> {
  const paths: Array<{ path: string; kind: 'file' }> = [];
  const joined = command.replace(/^\s*!/, '').replace(/\\\n/g, '').replace(/["']/g, '');
  // The folders earlier commands `cd` to: later relative words are taken from each of them too (`cd app && sh x/y.sh`).
  const bases = new Set<string>();
  for (const part of joined.split(COMMAND_BREAKS)) {
    const words = part.split(WORD_BREAKS).filter((word) => word !== '');
    const moved: string[] = [];
    work.words += words.length;
    if (work.words > CONFIG_WORK_BOUNDS.words) throw overBound(`settings that run programs and hooks of more than ${CONFIG_WORK_BOUNDS.words} words`);
    words.forEach((word, index) => {
      if (word === '.' || word === '..' || word.startsWith('-') || word.includes('://') || /[$%*?[\]{}\\]/.test(word)) return;
      // The program before it, past its options and a `run` (`sh -e x.sh`, `deno run x.ts`).
      const before = words.slice(0, index).filter((earlier) => !earlier.startsWith('-') && earlier !== 'run');
      const previous = before.length > 0 ? path.basename(before.at(-1)!) : undefined;
      const resolved = expand(word, top);
      if (resolved === undefined) return;
      // `$(dirname "$0")/../x` splits into `/../x`: relative, from the hook's folder.
      const relative = word.startsWith('/.') ? word.slice(1) : word;
      const elsewhere =
        path.isAbsolute(relative) || relative.startsWith('~')
          ? []
          : [...bases, ...(from !== undefined && /^\.{1,2}\//.test(relative) ? [from] : [])].map((base) => path.resolve(base, relative));
      // A `cd` target is where later words are taken from, not held itself (`cd frontend && npm test` would hold the
      // whole project read-only); a folder a program is given (`eslint src/`) runs nothing of its own.
      if (previous !== undefined && CHANGES_FOLDER.has(words[index - 1] ?? '')) {
        moved.push(resolved, ...elsewhere);
        return;
      }
      if (word.endsWith('/')) return;
      const script = previous !== undefined && (INTERPRETERS.has(previous) || previous === 'source');
      if (word.includes('/') || (script && (SCRIPT_FILE.test(word) || fs.existsSync(resolved) || isLink(resolved))))
        for (const found of new Set([resolved, ...elsewhere])) if (!lstatOrUndefined(found)?.isDirectory()) paths.push({ path: found, kind: 'file' });
    });
    for (const dir of moved) bases.add(dir);
  }
  return paths;
}

/** What ends one command and starts the next: a new line, `;`, `&`, `&&`, `|`, `||`, a subshell's or substitution's bounds. */
const COMMAND_BREAKS = /[\n;&|()`]+/;

/**
 * A configured path made absolute as git does (`~/` is the user's home, `~name/` the home of the user `name`);
 * undefined for what git fills in itself (`%(prefix)/`) and for the home of a user this machine does not know (git
 * cannot expand it either). A thirteenth pass had `core.hooksPath = ~root/ws/hooks` name the workspace's hooks.
 */
function expand(value: string, base: string): string | undefined {
  if (value === '' || value.startsWith('%(')) return undefined;
  const tilde = /^~([^/]*)(?:\/(.*))?$/s.exec(value);
  if (tilde) {
    const home = tilde[1] === '' ? os.homedir() : homeOf(tilde[1]!);
    return home === undefined ? undefined : spelledFrom(home, tilde[2] ?? '');
  }
  return spelledFrom(base, value);
}

/** The home folder of the user `name`, as git's `getpwnam` finds it: the user database (`/etc/passwd`, else `getent`). */
function homeOf(name: string): string | undefined {
  if (!/^[A-Za-z0-9._][A-Za-z0-9._-]*\$?$/.test(name)) return undefined;
  const local = readByStatus(passwdFiles, '/etc/passwd', () => homesIn(readPlainFile('/etc/passwd', 16 * 1024 * 1024) ?? ''))?.get(name);
  if (local !== undefined) return local;
  if (askedDatabase.has(name)) return askedDatabase.get(name) ?? undefined;
  const getent = systemProgram('getent');
  if (getent === undefined) return undefined;
  if (++work.userLookups > CONFIG_WORK_BOUNDS.userLookups)
    throw overBound(`more than ${CONFIG_WORK_BOUNDS.userLookups} other users' homes (~name/) to look up`);
  let home: string | undefined;
  try {
    home = homesIn(execFileSync(getent, ['passwd', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000, env: HELPER_ENV })).get(name);
  } catch {
    home = undefined;
  }
  if (askedDatabase.size > 256) askedDatabase.clear();
  askedDatabase.set(name, home ?? null);
  return home;
}

/** `/etc/passwd` read before, kept while its status is the same. */
const passwdFiles = new Map<string, { stamp: string; value: Map<string, string> | undefined }>();
/** Users the database was asked for (null: unknown there). */
const askedDatabase = new Map<string, string | null>();

/** Each user's home in `passwd` lines (`name:x:uid:gid:gecos:home:shell`). */
function homesIn(text: string): Map<string, string> {
  const homes = new Map<string, string>();
  for (const line of text.split('\n')) {
    const fields = line.split(':');
    if (fields.length >= 7 && fields[0] && fields[5] && path.isAbsolute(fields[5]) && !homes.has(fields[0])) homes.set(fields[0], fields[5]);
  }
  return homes;
}

/** Where the hooks that are links lead (a hook in a protected folder cannot be replaced, but what it leads to may). */
function linkedHooks(folder: string): string[] {
  const entries = hooksIn(folder);
  try {
    return entries
      .filter((entry) => entry.isSymbolicLink())
      .map((entry) => spelledFrom(folder, fs.readlinkSync(path.join(folder, entry.name))))
      .map(realOrSelf);
  } catch {
    return [];
  }
}

/** The settings a configuration file holds (its own, not those it includes), lower-case names; none when missing or unreadable. */
function settingsOf(file: string): ReadonlyArray<readonly [string, string]> {
  return readByStatus(readBefore, file, () => readSettings(file)) ?? [];
}

/**
 * What `read` makes of a plain file, kept while the file's status (device, inode, size, times) is the same: planning
 * each command looks at the same configuration files and hooks, which seldom change. Undefined when it is not there.
 */
function readByStatus<T>(
  cache: Map<string, { stamp: string; value: T | undefined }>,
  file: string,
  read: (stat: fs.BigIntStats) => T | undefined,
): T | undefined {
  let stat: fs.BigIntStats;
  try {
    stat = fs.statSync(file, { bigint: true });
    if (!stat.isFile()) return undefined;
  } catch {
    return undefined;
  }
  const stamp = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  const known = cache.get(file);
  if (known?.stamp === stamp) return known.value;
  let value: T | undefined;
  try {
    value = read(stat);
  } catch {
    value = undefined; // gone or unreadable meanwhile
  }
  if (cache.size > 256) cache.clear();
  cache.set(file, { stamp, value });
  return value;
}

/**
 * The settings of a configuration file as git parses them: the text is read here (`readPlainFile`: never a FIFO or
 * a device, which git would wait on) and handed to git on its input, includes not followed (`visit` follows them).
 */
function readSettings(file: string): Array<readonly [string, string]> {
  const git = systemProgram('git');
  if (git === undefined) return [];
  const text = readPlainFile(file, MAX_CONFIG_BYTES);
  if (text === undefined) return [];
  let listing: string;
  try {
    listing = execFileSync(git, ['config', '--no-includes', '--file', '-', '--list', '--null'], {
      cwd: '/',
      env: { ...HELPER_ENV, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      encoding: 'utf8',
      input: text,
      stdio: ['pipe', 'pipe', 'ignore'],
      timeout: 5000,
      maxBuffer: 4 * 1024 * 1024,
    });
  } catch {
    return []; // a file git cannot parse: git stops on it too, running nothing it names
  }
  return listing
    .split('\0')
    .filter((entry) => entry !== '')
    .map((entry) => {
      const newline = entry.indexOf('\n');
      return newline === -1 ? ([entry, ''] as const) : ([entry.slice(0, newline), entry.slice(newline + 1)] as const);
    });
}

function realOrSelf(entry: string): string {
  try {
    return fs.realpathSync.native(entry); // realpath(3): `..` after a link as the kernel takes it
  } catch {
    return entry;
  }
}

function isLink(entry: string): boolean {
  try {
    return fs.lstatSync(entry).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * `value` (a path a configuration, a `.git` file or a link names) from `base` as git hands it to the kernel: `.` and
 * `..` taken out only where no link comes before them — after a link anywhere on the way, `..` is the parent of where
 * the link led (`link/x/..` too, not only `link/..`), which `path.resolve` would read lexically, so from the first such
 * `..` on the rest is kept as spelled for `physicalPath`, which follows links and names one inside the workspace (a
 * command could replace it).
 */
export function spelledFrom(base: string, value: string): string {
  const parts = (value.startsWith('/') ? value : `${base}/${value}`).split('/').filter((part) => part !== '' && part !== '.');
  let current = '/';
  let throughLink = false;
  for (const [index, part] of parts.entries()) {
    if (part !== '..') {
      current = path.join(current, part);
      throughLink ||= isLink(current);
    } else if (throughLink) return [current, ...parts.slice(index)].join('/');
    else current = path.dirname(current);
  }
  return current;
}
