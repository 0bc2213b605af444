import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTime } from './process-groups.js';

// What the Toolwright hosts of one user on one machine share (several `serve`s, a `call` beside a
// `serve`, two tool sets on nested workspaces): a command run by one host can change the workspace
// another host is making a sandbox for, and a placeholder one host made can be mounted by another's
// sandbox. So the hosts take turns to make sandboxes (`takeTurn`), the host whose turn it is pauses
// every host's commands (`otherHostsGroups`), and a placeholder is removed only when no host holds it
// (`holders`). The record lives in a folder of the user's runtime folder (else `/tmp`) that only this user may
// write; a sandbox sees neither.

/** This process, as the record names it: its id and its start time (an id alone is reused). */
const SELF = `${process.pid}-${startTime(process.pid) ?? 'unknown'}`;

let shared: string | undefined;

/** The folder the hosts share, made on first use (mode 0700) and refused when another user could write it. */
export function sharedDirectory(): string {
  if (shared) return shared;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  // The user's runtime folder (/run/user/<uid>: one per user, made by the system, shared by the user's services
  // whatever their private /tmp or /dev), else /tmp.
  const base = [`/run/user/${uid}`, '/tmp'].find((candidate) => isDirectory(candidate)) ?? os.tmpdir();
  const dir = path.join(base, `toolwright-${uid}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new Error(`the folder Toolwright processes share (${dir}) cannot be made: ${message(error)}`, { cause: error });
  }
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0)
    throw new Error(`${dir}, the folder Toolwright processes of this user share, is not a folder only this user may write; remove it`);
  for (const sub of ['hosts', 'holds']) fs.mkdirSync(path.join(dir, sub), { recursive: true, mode: 0o700 });
  return (shared = dir);
}

/** Whether the process a record names (`<pid>-<start>`) still runs. */
function alive(name: string): boolean {
  const match = /^(\d+)-(.+)$/.exec(name);
  return match !== null && startTime(Number(match[1])) === match[2];
}

const TURN_WAIT_MS = 30_000;

/**
 * Waits for this host's turn to make a sandbox (one host of the user's at a time) and takes it; the
 * returned function gives it back. The turn is a symbolic link naming its holder, made atomically;
 * one left by a host that died is taken over. Rejects when another host has held it for 30 seconds.
 */
export async function takeTurn(): Promise<() => void> {
  const lock = path.join(sharedDirectory(), 'turn');
  const started = Date.now();
  for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
    if (tryTurn(lock)) return () => giveBack(lock);
    if (Date.now() - started > TURN_WAIT_MS) {
      const holder = readLink(lock);
      throw new Error(`another Toolwright process (${holder ?? 'gone since'}) has been making a sandbox for ${TURN_WAIT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Takes the turn if it is free now (or its holder has died), without waiting. */
export function tryTakeTurn(): (() => void) | undefined {
  const lock = path.join(sharedDirectory(), 'turn');
  return tryTurn(lock) ? () => giveBack(lock) : undefined;
}

function tryTurn(lock: string): boolean {
  try {
    fs.symlinkSync(SELF, lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = readLink(lock);
  if (holder === undefined || alive(holder)) return false;
  // Its holder died: taken over if it is still that one's (another host may have been quicker).
  if (readLink(lock) === holder) removeFile(lock);
  try {
    fs.symlinkSync(SELF, lock);
    return true;
  } catch {
    return false;
  }
}

function giveBack(lock: string): void {
  if (readLink(lock) === SELF) removeFile(lock);
}

/** Records this host's parent control groups (where its commands' groups are), for the others to pause. */
export function recordHostGroups(groups: readonly string[]): void {
  try {
    fs.writeFileSync(path.join(sharedDirectory(), 'hosts', SELF), JSON.stringify(groups), { mode: 0o600 });
  } catch {
    // Without the record, other hosts cannot pause this one's commands: their turns still exclude each other.
  }
}

export function forgetHostGroups(): void {
  if (shared) removeFile(path.join(shared, 'hosts', SELF));
}

/** The parent control groups of the other hosts that still run (records of those that died are removed). */
export function otherHostsGroups(): string[] {
  const dir = path.join(sharedDirectory(), 'hosts');
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
 * Where the holders of the placeholder at `target` are recorded: by its folder's device and inode and its name,
 * so hosts that reach the workspace by different paths (a link, a bind mount) record the same placeholder together.
 */
function holdsOf(target: string): string {
  let folder: string;
  try {
    const stat = fs.statSync(path.dirname(target), { bigint: true });
    folder = `${stat.dev}:${stat.ino}`;
  } catch {
    folder = path.dirname(target); // gone: recorded by its spelling, as nothing can be mounted there anyway
  }
  const key = `${folder}/${path.basename(target)}`;
  return path.join(sharedDirectory(), 'holds', crypto.createHash('sha256').update(key).digest('hex').slice(0, 32));
}

function isDirectory(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

/** Whether some host made the placeholder at `target` and has not removed it (it is then a placeholder, not the user's). */
export function isRecordedPlaceholder(target: string): boolean {
  return fs.existsSync(holdsOf(target));
}

/** Records this host as a holder of the placeholder at `target`. */
export function addHolder(target: string): void {
  const dir = holdsOf(target);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, SELF), target, { mode: 0o600 });
}

/**
 * Removes this host from the holders of the placeholder at `target`; true when no other host that
 * still runs holds it (the record is removed then, and the caller may remove the placeholder).
 */
export function removeHolder(target: string): boolean {
  const dir = holdsOf(target);
  removeFile(path.join(dir, SELF));
  const others = readDirectory(dir).filter((name) => {
    if (alive(name)) return true;
    removeFile(path.join(dir, name));
    return false;
  });
  if (others.length > 0) return false;
  try {
    fs.rmdirSync(dir);
  } catch {
    // a holder came meanwhile, or it is gone
  }
  return true;
}

function readLink(file: string): string | undefined {
  try {
    return fs.readlinkSync(file);
  } catch {
    return undefined;
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

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
