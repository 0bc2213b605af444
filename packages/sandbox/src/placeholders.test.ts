import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { removeRecord, sweepOrphanedPlaceholders } from './hosts.js';
import { entryOf, inPinnedFolder } from './pinned-folder.js';
import { holdPlaceholders, isPlaceholder } from './placeholders.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-placeholders-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe(holdPlaceholders, () => {
  it('makes the missing paths as empty placeholders, held until the last release', async () => {
    fs.writeFileSync(path.join(root, '.env'), 'KEY=1');
    const requests = [
      { path: path.join(root, '.git'), kind: 'directory' as const },
      { path: path.join(root, '.env'), kind: 'file' as const },
      { path: path.join(root, 'toolwright.config.json'), kind: 'file' as const },
    ];
    const first = holdPlaceholders(requests);
    expect(first.placeholders).toEqual([path.join(root, '.git'), path.join(root, 'toolwright.config.json')]);
    expect(fs.readdirSync(path.join(root, '.git'))).toEqual([]);
    // The user may fill them on the host (then they are the user's); the sandbox mounts them read-only.
    expect(fs.statSync(path.join(root, '.git')).mode & 0o200).toBe(0o200);
    expect(fs.statSync(path.join(root, 'toolwright.config.json')).mode & 0o200).toBe(0o200);
    expect(fs.readFileSync(path.join(root, 'toolwright.config.json'), 'utf8')).toBe('');
    const second = holdPlaceholders(requests);
    expect(second.placeholders).toEqual(first.placeholders);
    await first.release();
    await first.release(); // once only
    expect(fs.existsSync(path.join(root, '.git'))).toBe(true);
    await second.release();
    expect(fs.existsSync(path.join(root, '.git'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'toolwright.config.json'))).toBe(false);
    expect(fs.readFileSync(path.join(root, '.env'), 'utf8')).toBe('KEY=1');
  });

  // Found by a twelfth pass: a placeholder that could not be made (the disk full) was taken as made by someone else,
  // and the command ran with `.git`, `.env` and the config creatable inside. It refuses, and lets go of the rest.
  it('throws when a placeholder cannot be made, and lets go of those it made for the same launch', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'unmakeable-'));
    const made = path.join(dir, '.git');
    const impossible = path.join(dir, 'no-such-folder', '.env');
    expect(() =>
      holdPlaceholders([
        { path: made, kind: 'directory' },
        { path: impossible, kind: 'file' },
      ]),
    ).toThrow(`the missing protected path '${impossible}' could not be held read-only (its folder is missing, or was swapped for a link); try again`);
    await vi.waitFor(() => expect(fs.existsSync(made)).toBe(false), { timeout: 30_000, interval: 20 });
  });

  it('leaves a placeholder that someone filled meanwhile', async () => {
    const held = holdPlaceholders([
      { path: path.join(root, '.toolwright'), kind: 'directory' },
      { path: path.join(root, 'policy.json'), kind: 'file' },
    ]);
    fs.writeFileSync(path.join(root, '.toolwright', 'audit.log'), 'kept');
    fs.writeFileSync(path.join(root, 'policy.json'), '{}');
    await held.release();
    expect(fs.readFileSync(path.join(root, '.toolwright', 'audit.log'), 'utf8')).toBe('kept');
    expect(fs.readFileSync(path.join(root, 'policy.json'), 'utf8')).toBe('{}');
  });
});

/** A process of its own holding placeholders through the built module (`npm test` builds first); `held` once they are. */
/** A process holding `requests`; with `bind`, in a mount namespace of its own where the folder `bind.from` is also at `bind.to`. */
function holderProcess(requests: { path: string; kind: 'directory' | 'file' }[], bind?: { from: string; to: string }) {
  const module = path.join(import.meta.dirname, '..', 'dist', 'placeholders.js');
  const script = `require(${JSON.stringify(module)}).holdPlaceholders(${JSON.stringify(requests)}); console.log('held'); setInterval(() => {}, 1000);`;
  const child = bind
    ? spawn('unshare', ['-rm', 'sh', '-c', 'mount --bind "$1" "$2" && exec "$3" -e "$4"', 'sh', bind.from, bind.to, process.execPath, script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
    : spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const held = new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the holder process ended (${code}) before it held anything`)));
  });
  const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, how) => resolve(how)));
  return { child, held, ended };
}

describe('placeholders other processes hold', () => {
  // Removed on the host, a placeholder is gone from every sandbox that mounted it, and can be made there.
  it('are kept while another process holds them: made by it, or by this one and joined by it', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'shared-'));
    const git = { path: path.join(dir, '.git'), kind: 'directory' as const };
    // Made by the other process, then held here too: this release keeps it.
    const other = holderProcess([git]);
    await other.held;
    const here = holdPlaceholders([git]);
    expect(here.placeholders).toEqual([git.path]);
    await here.release();
    expect(fs.existsSync(git.path)).toBe(true);
    // Killed (no clean-up of its own): a holder that died holds nothing.
    other.child.kill('SIGKILL');
    await other.ended;
    await holdPlaceholders([git]).release();
    expect(fs.existsSync(git.path)).toBe(false);
    // Made here, joined by another process as a path it mounts as it is (a deeper protected path): kept when this one lets go.
    const made = holdPlaceholders([git]);
    const joiner = spawn(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(path.join(import.meta.dirname, '..', 'dist', 'placeholders.js'))}).holdPlaceholders([], [${JSON.stringify(git.path)}]); console.log('held'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => joiner.stdout!.once('data', () => resolve()));
    await made.release();
    expect(fs.existsSync(git.path)).toBe(true);
    const joinerEnded = new Promise((resolve) => joiner.once('exit', resolve));
    joiner.kill('SIGTERM'); // its exit leaves what a launch still held (its sandbox may outlive it for a moment)
    await joinerEnded;
    expect(fs.existsSync(git.path)).toBe(true);
    await holdPlaceholders([git]).release(); // a holder that died holds nothing
    expect(fs.existsSync(git.path)).toBe(false);
  });
});

/** Whether this machine lets a process make a user and mount namespace and bind a folder in it (`unshare -rm`). */
const canBind = (() => {
  const dir = fs.mkdtempSync(path.join(root, 'bind-probe-'));
  fs.mkdirSync(path.join(dir, 'to'));
  return spawnSync('unshare', ['-rm', 'mount', '--bind', dir, path.join(dir, 'to')]).status === 0;
})();

describe('placeholders other processes hold by another spelling', () => {
  // Two hosts reaching one workspace by different paths (a bind mount: a workspace's path is canonical, links resolved)
  // hold one placeholder together.
  // Root only: in the namespace `unshare -r` makes, the process is root, and shares the records of root's processes.
  it.runIf(canBind && process.getuid?.() === 0)('are kept while a process that reaches the folder by a bind mount holds them', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'spelled-'));
    const bound = fs.mkdtempSync(path.join(root, 'bound-'));
    const other = holderProcess([{ path: path.join(bound, '.env'), kind: 'file' }], { from: dir, to: bound });
    await other.held;
    expect(fs.existsSync(path.join(bound, '.env'))).toBe(false); // made in the folder bound there, not in this one
    const here = holdPlaceholders([{ path: path.join(dir, '.env'), kind: 'file' }]);
    expect(here.placeholders).toEqual([path.join(dir, '.env')]);
    await here.release();
    expect(fs.existsSync(path.join(dir, '.env'))).toBe(true);
    const ended = new Promise((resolve) => other.child.once('exit', resolve));
    other.child.kill('SIGTERM');
    await ended;
    await holdPlaceholders([{ path: path.join(dir, '.env'), kind: 'file' }]).release();
    expect(fs.existsSync(path.join(dir, '.env'))).toBe(false);
  });
});

describe('placeholders of an interrupted process', () => {
  // Its sandboxes' processes may outlive it for a moment (found by an eighth pass: removed at exit, a `.git` could
  // be made by one still running): what a launch still holds stays until another process lets it go.
  it.for(['SIGINT', 'SIGTERM'] as const)('are kept while a launch held them when it is ended by %s, which still ends it', async (signal) => {
    const dir = fs.mkdtempSync(path.join(root, 'signal-'));
    const git = { path: path.join(dir, '.git'), kind: 'directory' as const };
    const { child, held, ended } = holderProcess([git]);
    await held;
    expect(fs.existsSync(git.path)).toBe(true);
    child.kill(signal);
    expect(await ended).toBe(signal);
    expect(fs.readdirSync(dir)).toEqual(['.git']);
    await holdPlaceholders([git]).release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('placeholders let go of just before the process ends', () => {
  // Let go of a moment after their launch ended (a following command holds them again), they are removed by a process
  // that ends at once — `process.exit()` right after its command, or a signal — as no launch holds them any more.
  it.for(['process.exit()', 'SIGTERM'] as const)('are removed when it ends by %s', async (how) => {
    const dir = fs.mkdtempSync(path.join(root, 'ended-'));
    const requests = [
      { path: path.join(dir, '.git'), kind: 'directory' },
      { path: path.join(dir, '.env'), kind: 'file' },
    ];
    const module = JSON.stringify(path.join(import.meta.dirname, '..', 'dist', 'placeholders.js'));
    const end = how === 'SIGTERM' ? "console.log('released'); setInterval(() => {}, 1000);" : 'process.exit(0);';
    const script = `const held = require(${module}).holdPlaceholders(${JSON.stringify(requests)}); void held.release(); ${end}`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const ended = new Promise((resolve) => child.once('exit', resolve));
    if (how === 'SIGTERM') {
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      child.kill('SIGTERM');
    }
    await ended;
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  // A folder removed while a host still held placeholders in it gives its inode number to the next folder made (ext4
  // does so at once): a CI run kept a later folder's `.git` and `.env` for ever, their holders taken to be the first
  // host's. Holders are recorded by the folder's inode and birth time.
  it("are removed though an earlier folder with the same inode number still has a live host's placeholders", async () => {
    const earlier = fs.mkdtempSync(path.join(root, 'reused-'));
    const inode = fs.statSync(earlier).ino;
    const stillHeld = holdPlaceholders([
      { path: path.join(earlier, '.git'), kind: 'directory' },
      { path: path.join(earlier, '.env'), kind: 'file' },
    ]);
    fs.rmSync(earlier, { recursive: true });
    let dir = fs.mkdtempSync(path.join(root, 'reused-'));
    for (let tries = 0; fs.statSync(dir).ino !== inode && tries < 20; tries++) dir = fs.mkdtempSync(path.join(root, 'reused-'));
    expect(fs.statSync(dir).ino, 'the file system gave no folder the removed one’s inode number').toBe(inode);
    const requests = [
      { path: path.join(dir, '.git'), kind: 'directory' },
      { path: path.join(dir, '.env'), kind: 'file' },
    ];
    const module = JSON.stringify(path.join(import.meta.dirname, '..', 'dist', 'placeholders.js'));
    const script = `const held = require(${module}).holdPlaceholders(${JSON.stringify(requests)}); void held.release(); process.exit(0);`;
    const ended = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(ended.status, ended.stderr).toBe(0);
    expect(fs.readdirSync(dir)).toEqual([]);
    await stillHeld.release();
  });
});

describe('records of placeholders left behind', () => {
  // A record outlives a killed host; a `.git` file made later under it, taken for a placeholder, had its `gitdir:` left writable.
  it('make nothing but the very placeholder made, still empty, a placeholder', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'stale-'));
    const git = { path: path.join(dir, '.git'), kind: 'directory' as const };
    const other = holderProcess([git]);
    await other.held;
    expect(isPlaceholder(git.path)).toBe(true);
    other.child.kill('SIGKILL');
    await other.ended;
    // Filled on the host: the user's now.
    fs.writeFileSync(path.join(git.path, 'HEAD'), 'ref: refs/heads/main\n');
    expect(isPlaceholder(git.path)).toBe(false);
    // Replaced by a `.git` file, or by another empty folder, under the same record: the user's.
    fs.rmSync(git.path, { recursive: true });
    fs.writeFileSync(git.path, 'gitdir: elsewhere\n');
    expect(isPlaceholder(git.path)).toBe(false);
    fs.rmSync(git.path);
    fs.mkdirSync(git.path);
    expect(isPlaceholder(git.path)).toBe(false);
    expect(holdPlaceholders([git]).placeholders).toEqual([]);
  });

  it('are swept, with the placeholder they name, a moment after their holders all died', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'orphan-'));
    const env = { path: path.join(dir, '.env'), kind: 'file' as const };
    const other = holderProcess([env]);
    await other.held;
    other.child.kill('SIGKILL');
    await other.ended;
    const removed: string[] = [];
    const sweep = (now: number) => sweepOrphanedPlaceholders((target) => removed.push(target), now);
    sweep(Date.now() + 60_000); // seen without holders: marked
    expect(removed).toEqual([]);
    sweep(Date.now() + 120_000); // still without holders a moment later: swept
    expect(removed).toEqual([env.path]);
    expect(isPlaceholder(env.path)).toBe(false);
  });
});

describe("a placeholder's record removed while a host writes into it", () => {
  const notEmpty = () => Object.assign(new Error('ENOTEMPTY: directory not empty, rmdir'), { code: 'ENOTEMPTY' });

  it('is left to whoever writes into it, never removed again at once, and never fails the launch that removes it', () => {
    const dir = fs.mkdtempSync(path.join(root, 'record-'));
    let tries = 0;
    removeRecord(dir, () => {
      tries++;
      // A host exiting outside the turn writes into the folder as it is removed.
      fs.writeFileSync(path.join(dir, '12345-1'), 'held');
      throw notEmpty();
    });
    expect(tries).toBe(1);
    expect(fs.readdirSync(dir)).toEqual(['12345-1']);
    removeRecord(dir);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('fails on anything else, as before', () => {
    const denied = Object.assign(new Error('EACCES: permission denied, rmdir'), { code: 'EACCES' });
    expect(() =>
      removeRecord('/nowhere', () => {
        throw denied;
      }),
    ).toThrow('EACCES');
  });
});

// An independent review: a command whose sandbox was planned before a folder existed (a background job) can rename
// that folder and put a link in its place while the host lets go of the placeholders another command had in it —
// checked and removed by path, the host removed what the link led to (the workspace root's own `.env`, `.git`, ...,
// which the command then made with its own content; or empty files outside the workspace).
describe('placeholders whose folder a command swaps for a link', () => {
  /** A workspace with a folder `r/s` in it, and a folder outside it. */
  function layout() {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(root, 'swapped-')));
    fs.mkdirSync(path.join(ws, 'r', 's'), { recursive: true });
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(root, 'outside-')));
    const swap = (to: string) => {
      fs.renameSync(path.join(ws, 'r', 's'), path.join(ws, 'r', `moved-${Date.now()}`));
      fs.symlinkSync(to, path.join(ws, 'r', 's'));
    };
    return { ws, outside, swap };
  }

  it("are not removed through the link: the root's own placeholders stay, held and recorded", async () => {
    const { ws, swap } = layout();
    const names = [
      { name: '.git', kind: 'directory' as const },
      { name: '.env', kind: 'file' as const },
    ];
    const atRoot = holdPlaceholders(names.map(({ name, kind }) => ({ path: path.join(ws, name), kind })));
    const below = holdPlaceholders(names.map(({ name, kind }) => ({ path: path.join(ws, 'r', 's', name), kind })));
    swap(ws); // r/s now leads to the root, whose .git and .env are placeholders too
    await below.release();
    for (const { name } of names) {
      expect(fs.existsSync(path.join(ws, name)), name).toBe(true);
      expect(isPlaceholder(path.join(ws, name)), name).toBe(true);
    }
    await atRoot.release();
    for (const { name } of names) expect(fs.existsSync(path.join(ws, name)), name).toBe(false);
  });

  it('are not made through the link: the command is refused and nothing is made where it leads', () => {
    const { ws, outside, swap } = layout();
    swap(outside);
    expect(() => holdPlaceholders([{ path: path.join(ws, 'r', 's', '.git'), kind: 'directory' }])).toThrow(
      'could not be held read-only (its folder is missing, or was swapped for a link)',
    );
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('reach, once the folder is open, the folder itself however it is swapped meanwhile', () => {
    const { ws, outside, swap } = layout();
    fs.writeFileSync(path.join(ws, 'r', 's', 'x'), '');
    fs.writeFileSync(path.join(outside, 'x'), '');
    const removed = inPinnedFolder(path.join(ws, 'r', 's'), (folder) => {
      swap(outside); // between the look and the act
      fs.unlinkSync(entryOf(folder, 'x'));
      return true;
    });
    expect(removed).toBe(true);
    expect(fs.existsSync(path.join(outside, 'x'))).toBe(true);
    expect(
      fs
        .readdirSync(path.join(ws, 'r'))
        .filter((name) => name.startsWith('moved-'))
        .map((name) => fs.readdirSync(path.join(ws, 'r', name))),
    ).toEqual([[]]);
  });

  it('are not opened at all when a folder on the way is a link', () => {
    const { ws, outside, swap } = layout();
    swap(outside);
    expect(inPinnedFolder(path.join(ws, 'r', 's'), () => true)).toBeUndefined();
    expect(inPinnedFolder(path.join(ws, 'r', 'missing'), () => true)).toBeUndefined();
    expect(inPinnedFolder(path.join(ws, 'r'), () => true)).toBe(true);
  });
});

describe('placeholders inside placeholders', () => {
  it('are removed deepest first, so the folder made for a missing folder on the way goes too', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'nested-'));
    // A first launch holds the missing folder `scripts`; a later one the missing script inside it; both let go together.
    const folder = holdPlaceholders([{ path: path.join(dir, 'scripts'), kind: 'directory' }]);
    const script = holdPlaceholders([{ path: path.join(dir, 'scripts', 'pre-commit.sh'), kind: 'file' }]);
    await Promise.all([folder.release(), script.release()]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('isPlaceholder', () => {
  // The review: the CLI asks with `--workspace` as given, which may be a link to the folder.
  it('answers for the folder a link on the way leads to', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(root, 'asked-')));
    const link = path.join(root, `link-${path.basename(dir)}`);
    fs.symlinkSync(dir, link);
    const held = holdPlaceholders([{ path: path.join(dir, 'toolwright.config.json'), kind: 'file' }]);
    expect(isPlaceholder(path.join(link, 'toolwright.config.json'))).toBe(true);
    expect(isPlaceholder(path.join(dir, 'toolwright.config.json'))).toBe(true);
    await held.release();
    expect(isPlaceholder(path.join(link, 'toolwright.config.json'))).toBe(false);
  });
});
