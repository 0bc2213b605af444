import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { entryOf, inPinnedFolder } from './pinned-folder.js';
import { startTime } from './process-groups.js';
import { sharedDirectory, sharedDirectoryPath, sharedSubdirectory } from './shared-directory.js';
import { takeTurn as takeTheTurn } from './turn.js';

// What the Toolwright hosts of one user on one machine share (several `serve`s, a `call` beside a
// `serve`, two tool sets on nested workspaces): a command run by one host can change the workspace
// another host is making a sandbox for, and a placeholder one host made can be mounted by another's
// sandbox. So the hosts take turns to make sandboxes (`takeTurn`), the host whose turn it is pauses
// every host's commands (`otherHostsGroups`), and a placeholder is removed only when no host holds it
// (`holders`). The record lives in a folder of the user's runtime folder (else `/tmp`) that only this user may
// write; a sandbox sees neither.

/** This process, as the record names it: its id and its start time (an id alone is reused). */
const SELF = `${process.pid}-${startTime(process.pid) ?? 'unknown'}`;

/** Whether the process a record names (`<pid>-<start>`) still runs. */
function alive(name: string): boolean {
  const match = /^(\d+)-(.+)$/.exec(name);
  return match !== null && startTime(Number(match[1])) === match[2];
}

/**
 * Waits for this host's turn to make a sandbox (one host of the user's at a time, `turn.ts`) and takes it;
 * the returned function gives it back. Rejects when another host has held it for 30 seconds.
 */
export function takeTurn(): Promise<() => void> {
  return takeTheTurn(sharedDirectory(), SELF);
}

export { holdsTurn } from './turn.js';

/** Records this host's parent control groups (where its commands' groups are), for the others to pause. */
export function recordHostGroups(groups: readonly string[]): void {
  try {
    fs.writeFileSync(path.join(sharedSubdirectory('hosts'), SELF), JSON.stringify(groups), { mode: 0o600 });
  } catch {
    // Without the record, other hosts cannot pause this one's commands: their turns still exclude each other.
  }
}

export function forgetHostGroups(): void {
  removeFile(path.join(sharedDirectoryPath(), 'hosts', SELF));
}

/** The parent control groups of the other hosts that still run (records of those that died are removed). */
export function otherHostsGroups(): string[] {
  const dir = sharedSubdirectory('hosts');
  const groups: string[] = [];
  for (const name of readDirectory(dir)) {
    if (name === SELF) continue;
    const file = path.join(dir, name);
    if (!alive(name)) {
      removeFile(file);
      continue;
    }
    try {
      const listed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      if (Array.isArray(listed)) groups.push(...listed.filter((entry): entry is string => typeof entry === 'string' && path.isAbsolute(entry)));
    } catch {
      // being written, or damaged: that host is not paused this time
    }
  }
  return groups;
}

/**
 * Where the holders of the placeholder at `target` are recorded: by its folder's identity (device, inode, birth time)
 * and its name, so hosts that reach the workspace by different paths (a bind mount) record the same placeholder
 * together. The birth time tells a folder from a removed one whose inode number it was given (ext4 gives it to the
 * next folder made): a host still holding placeholders in the removed folder must not count as a holder of the new
 * folder's (a CI run kept a `.git` and a `.env` so).
 */
function holdsOf(target: string): string {
  // Gone, or reached through a link (swapped by a command): by its spelling, which no placeholder is recorded under.
  const stat = inPinnedFolder(path.dirname(target), (folder) => fs.fstatSync(folder, { bigint: true }));
  const folder = stat ? identityOf(stat) : path.dirname(target);
  const key = `${folder}/${path.basename(target)}`;
  return path.join(sharedSubdirectory('holds'), crypto.createHash('sha256').update(key).digest('hex').slice(0, 32));
}

/** What a placeholder was made as, recorded by the host that made it. */
interface PlaceholderRecord {
  target: string;
  kind: 'directory' | 'file';
  /** Its device, inode and birth time: a later file or folder of the same name (an inode number is reused) is not it. */
  identity: string;
}

const RECORD = 'placeholder.json';

/** A file's or folder's device, inode and birth time. */
export function identityOf(stat: fs.BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.birthtimeNs}`;
}

/** Records the placeholder this host has just made at `target` as `identity` (written whole, then renamed into place). */
export function recordPlaceholder(target: string, kind: PlaceholderRecord['kind'], identity: string): void {
  const dir = holdsOf(target);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const record: PlaceholderRecord = { target, kind, identity };
  const draft = path.join(dir, `${RECORD}.${SELF}`);
  fs.writeFileSync(draft, JSON.stringify(record), { mode: 0o600 });
  fs.renameSync(draft, path.join(dir, RECORD));
}

/**
 * Whether `target` is a placeholder some host made and none has removed: recorded, still the very file or folder
 * made (device, inode, birth) and still empty. Anything else there is the user's, protected as it is — a `.git` file
 * made later under a record left behind must have its `gitdir:` kept read-only too (found by an eighth pass).
 */
export function isRecordedPlaceholder(target: string): boolean {
  return recordedIdentity(target) !== undefined;
}

/** The identity of the placeholder at `target` when `isRecordedPlaceholder(target)`, else undefined. */
export function recordedIdentity(target: string): string | undefined {
  const record = readRecord(holdsOf(target));
  return record !== undefined && isStill(target, record) ? record.identity : undefined;
}

/** Whether `target` is still the placeholder recorded: the same file or folder, empty, in its own folder reached through no link. */
function isStill(target: string, record: PlaceholderRecord): boolean {
  return (
    inPinnedFolder(path.dirname(target), (folder) => {
      const entry = entryOf(folder, path.basename(target));
      let stat: fs.BigIntStats;
      try {
        stat = fs.lstatSync(entry, { bigint: true });
      } catch {
        return false;
      }
      if (identityOf(stat) !== record.identity) return false;
      if (record.kind === 'file') return stat.isFile() && stat.size === 0n;
      try {
        return stat.isDirectory() && fs.readdirSync(entry).length === 0;
      } catch {
        return false;
      }
    }) === true
  );
}

function readRecord(dir: string): PlaceholderRecord | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(dir, RECORD), 'utf8')) as Partial<PlaceholderRecord>;
    if (typeof record.target !== 'string' || typeof record.identity !== 'string') return undefined;
    if (record.kind !== 'directory' && record.kind !== 'file') return undefined;
    return record as PlaceholderRecord;
  } catch {
    return undefined;
  }
}

/** Records this host as a holder of the placeholder at `target`. */
export function addHolder(target: string): void {
  const dir = holdsOf(target);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, SELF), target, { mode: 0o600 });
  removeFile(path.join(dir, ORPHANED));
}

/**
 * Removes this host from the holders of the placeholder at `target`; true when no other host that still runs
 * holds it. Call `forgetPlaceholder` then, in the hosts' turn, having removed the placeholder if it still is one.
 */
export function removeHolder(target: string): boolean {
  const dir = holdsOf(target);
  removeFile(path.join(dir, SELF));
  return liveHolders(dir).length === 0;
}

/** Removes the record of the placeholder at `target`: no host holds it, and it is removed or is the user's now. */
export function forgetPlaceholder(target: string): void {
  removeRecord(holdsOf(target));
}

/**
 * Removes a placeholder's record folder. A host that exits lets go of what it held outside the hosts' turn (it cannot
 * wait for it at exit), so a file may land in the folder while it is removed (ENOTEMPTY): the folder is then left to
 * whoever wrote into it — never removed again at once, which would delete what was just written — and the next sweep
 * looks at it again. Bookkeeping never fails a launch (a CI run refused a tool call over it).
 */
export function removeRecord(dir: string, remove: (dir: string) => void = (at) => fs.rmSync(at, { recursive: true, force: true })): void {
  try {
    remove(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw error;
  }
}

function liveHolders(dir: string): string[] {
  return readDirectory(dir).filter((name) => {
    if (!/^\d+-/.test(name) || name.includes('.')) return false;
    if (alive(name)) return true;
    removeFile(path.join(dir, name));
    return false;
  });
}

const ORPHANED = 'orphaned';
/** How long a placeholder whose holders all died stays: their sandboxes' processes die a moment after them. */
const ORPHAN_GRACE_MS = 2_000;
const SWEEP_EVERY_MS = 10_000;
let lastSweep = 0;

/**
 * In the hosts' turn: placeholders whose holders have all died (a host that exited outside the turn, or was
 * killed) are removed with `remove` once they have been so for a moment, each if it still is the placeholder
 * made, and their records with them. Looks at most every ten seconds.
 */
export function sweepOrphanedPlaceholders(remove: (target: string, kind: PlaceholderRecord['kind'], identity: string) => void, now = Date.now()): void {
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  const holds = sharedSubdirectory('holds');
  for (const name of readDirectory(holds)) {
    const dir = path.join(holds, name);
    if (liveHolders(dir).length > 0) continue;
    const marker = path.join(dir, ORPHANED);
    let since: number | undefined;
    try {
      since = Number(fs.readFileSync(marker, 'utf8'));
    } catch {
      // seen without holders for the first time
    }
    if (since === undefined || !Number.isFinite(since)) {
      try {
        fs.writeFileSync(marker, String(now), { mode: 0o600 });
      } catch {
        // the record is gone
      }
      continue;
    }
    if (now - since < ORPHAN_GRACE_MS) continue;
    const record = readRecord(dir);
    if (record && isStill(record.target, record)) remove(record.target, record.kind, record.identity);
    removeRecord(dir);
  }
}

function readDirectory(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function removeFile(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // gone already
  }
}
