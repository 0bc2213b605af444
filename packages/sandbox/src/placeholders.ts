import fs from 'node:fs';
import path from 'node:path';
import { onHostExit } from './host-exit.js';
import {
  addHolder,
  forgetPlaceholder,
  identityOf,
  isRecordedPlaceholder,
  recordedIdentity,
  recordPlaceholder,
  removeHolder,
  sweepOrphanedPlaceholders,
  takeTurn,
} from './hosts.js';
import { entryOf, inPinnedFolder } from './pinned-folder.js';

/** A protected path that must not come into being inside the sandbox, and what stands in for it. */
export interface PlaceholderRequest {
  path: string;
  /** An empty directory (`.git`, `.toolwright`) or an empty file (`.env`, a configuration file). */
  kind: 'directory' | 'file';
}

/** Placeholders this process holds, by path: how many launches hold each, and what each is. */
const held = new Map<string, { count: number; kind: PlaceholderRequest['kind'] }>();
/** Placeholders no launch of this process holds any more, waiting for the hosts' turn to be let go of. */
const letGo = new Map<string, PlaceholderRequest['kind']>();
let removeAtExit = false;

/**
 * A missing protected path (no `.git` yet) has nothing a read-only mount could cover, and a command
 * could create it — a `.git` whose hooks and `core.fsmonitor` the host's git would run. So each
 * missing one is held by an empty placeholder made on the host and mounted read-only in the
 * sandbox, for as long as a sandbox may see it: inside, it can be neither written, replaced nor
 * removed (a mount point). A placeholder is removed only when no launch of any Toolwright process of
 * the user holds it (the holders are recorded where the hosts share them, `hosts.ts`): removed on
 * the host, it would be gone from every sandbox that mounted it too, and could be made there. A
 * placeholder another process made counts as missing here, and is held by this one too; so is one
 * among `covered` (the paths a sandbox mounts read-only as they are, deeper protected paths), when
 * a process recorded it. The last release removes the placeholder if it is still empty (a person who
 * put something there meanwhile keeps it), in the hosts' turn (`takeTurn`); placeholders whose holders all died are
 * swept in a later turn. Call it in the hosts' turn (while the sandbox is planned, `pauseCommands`).
 * @returns the placeholders to mount read-only (those missing, made now or held already), the requested paths found
 *   there after all (made meanwhile: to mount read-only as they are), and their release
 *   (once; it resolves when what it let go of is removed, or kept because another holds it).
 */
export function holdPlaceholders(
  requests: readonly PlaceholderRequest[],
  covered: readonly string[] = [],
): { placeholders: string[]; existing: string[]; release: () => Promise<void> } {
  sweepOrphanedPlaceholders(remove);
  const placeholders: string[] = [];
  const existing: string[] = [];
  const holding: string[] = [];
  const hold = (target: string, kind: PlaceholderRequest['kind']) => {
    const entry = held.get(target);
    if (entry) entry.count++;
    else {
      // Let go of but not yet removed, this host is still recorded as its holder.
      if (!letGo.delete(target)) addHolder(target);
      held.set(target, { count: 1, kind });
    }
    holding.push(target);
  };
  try {
    for (const request of requests) {
      if (held.has(request.path) || isRecordedPlaceholder(request.path)) {
        // Another process's (or this one's): made again should it have gone meanwhile.
        const made = fs.existsSync(request.path) ? undefined : make(request);
        if (made !== undefined) recordPlaceholder(request.path, request.kind, made);
        hold(request.path, request.kind);
        placeholders.push(request.path);
        continue;
      }
      const made = make(request);
      if (made !== undefined) {
        recordPlaceholder(request.path, request.kind, made);
        hold(request.path, request.kind);
        placeholders.push(request.path);
      } else existing.push(request.path);
    }
  } catch (error) {
    // What was held for this launch is let go of, as its release would.
    void letGoOfHeld(holding);
    throw error;
  }
  for (const target of covered) {
    if (!held.has(target) && !isRecordedPlaceholder(target)) continue;
    const stat = lstatOrUndefined(target);
    if (stat) hold(target, stat.isDirectory() ? 'directory' : 'file');
  }
  if (holding.length > 0 && !removeAtExit) {
    removeAtExit = true;
    onHostExit(removeAll);
  }
  let released = false;
  return {
    placeholders,
    existing,
    release: async () => {
      if (released) return;
      released = true;
      await letGoOfHeld(holding);
    },
  };
}

/**
 * One launch's holding ends: what no launch holds any more is let go of in the hosts' turn, a moment later
 * (`LET_GO_AFTER_MS`), so a command that follows at once (a batch, a script, the next step of a plan) holds it
 * again instead of it being removed and made again; at the latest when this process has nothing else to do.
 */
async function letGoOfHeld(holding: readonly string[]): Promise<void> {
  for (const target of holding) {
    const entry = held.get(target);
    if (!entry || --entry.count > 0) continue;
    held.delete(target);
    letGo.set(target, entry.kind);
  }
  if (letGo.size > 0) await letGoSoon();
}

/** How long a placeholder no launch holds stays before it is let go of. */
const LET_GO_AFTER_MS = 250;
/** The let-go to come: when it runs, and running it now. */
let soon: { done: Promise<void>; run: () => void } | undefined;

/** Lets go of `letGo` in the hosts' turn after `LET_GO_AFTER_MS`, or as soon as this process would end by itself. */
function letGoSoon(): Promise<void> {
  if (soon) return soon.done;
  let resolve!: () => void;
  const done = new Promise<void>((settle) => (resolve = settle));
  const run = () => {
    if (soon?.done !== done) return;
    soon = undefined;
    clearTimeout(timer);
    if (letGo.size === 0) resolve();
    else
      void takeTurn()
        .then(letGoInTurn, () => undefined)
        .then(resolve);
  };
  // The timer keeps nothing alive: a process about to end lets go at once ('beforeExit', when its work is done;
  // the turn it takes keeps it alive until the placeholders are removed), and one ended by a signal at exit (`removeAll`).
  const timer = setTimeout(run, LET_GO_AFTER_MS);
  timer.unref();
  soon = { done, run };
  if (!letGoAtEnd) {
    letGoAtEnd = true;
    process.on('beforeExit', () => soon?.run());
  }
  return done;
}
let letGoAtEnd = false;

/**
 * Whether `path` is a placeholder (made by this process or another's, not removed yet, and still the empty file or
 * folder made): it exists, but stands for a missing path. Filled or replaced on the host, it is the user's.
 */
export function isPlaceholder(target: string): boolean {
  // A question, not an act: asked with a spelling through a link (`--workspace <a link>`), it is answered for the folder
  // the link leads to (making and removing insist on the canonical path: `inPinnedFolder`).
  let folder = path.dirname(target);
  try {
    folder = fs.realpathSync(folder);
  } catch {
    // missing: answered as spelled
  }
  return isRecordedPlaceholder(path.join(folder, path.basename(target)));
}

/** In the hosts' turn: the placeholders let go of are removed, each unless a launch or another process holds it again. */
function letGoInTurn(giveBack: () => void): void {
  try {
    for (const [target, kind] of deepestFirst(letGo)) {
      letGo.delete(target);
      if (held.has(target)) continue; // held again by a launch since
      if (removeHolder(target)) letGoOf(target, kind);
    }
  } finally {
    giveBack();
  }
}

/**
 * The placeholders let go of, those inside others first: a placeholder folder made for a missing folder on the way
 * (`scripts` for `scripts/pre-commit.sh`) may hold a later launch's placeholder, and is empty again only once that
 * one is removed.
 */
function deepestFirst(placeholders: ReadonlyMap<string, PlaceholderRequest['kind']>): Array<[string, PlaceholderRequest['kind']]> {
  return [...placeholders].sort(([a], [b]) => b.split('/').length - a.split('/').length);
}

/** No host holds it any more: removed if it still is the placeholder made, and forgotten. */
function letGoOf(target: string, kind: PlaceholderRequest['kind']): void {
  const identity = recordedIdentity(target);
  if (identity !== undefined) remove(target, kind, identity);
  forgetPlaceholder(target);
}

/**
 * At exit: what launches let go of (their processes are gone) and no other process holds is removed now — outside
 * the hosts' turn, as nothing can be waited for at exit (`process.exit()` right after a command, a signal): another
 * host making a sandbox that holds it has recorded itself as a holder first, and one that had only looked at it
 * cannot mount it once it is gone (its command is refused). What a launch still holds stays (an empty placeholder)
 * for a later host's sweep (`sweepOrphanedPlaceholders`): its sandbox's processes may outlive this process for a
 * moment, and must not see it go.
 */
function removeAll(): void {
  for (const [target, kind] of deepestFirst(letGo)) {
    if (removeHolder(target)) letGoOf(target, kind);
  }
  letGo.clear();
}

function lstatOrUndefined(target: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(target);
  } catch {
    return undefined;
  }
}

/**
 * Makes the placeholder and returns its identity (undefined: something is there already, protected as it is), or
 * throws: a protected path that could not be held (no room, no inode, no permission, its folder missing or reached
 * through a link) would be left for the sandbox to make, writable — the command must not run (a twelfth pass filled
 * the disk before a call, and `.git`, `.env` and the config were then creatable inside). Made inside its folder
 * opened and checked first (`inPinnedFolder`), never through a link a command put on the way.
 */
function make(request: PlaceholderRequest): string | undefined {
  const made = inPinnedFolder(path.dirname(request.path), (folder): { identity?: string; error?: NodeJS.ErrnoException } => {
    const entry = entryOf(folder, path.basename(request.path));
    try {
      // Writable by the user on the host (the sandbox mounts it read-only whatever its mode): the user's own `git init`, an
      // editor saving `.env` or an audit log beside a session fills it and makes it theirs, rather than meeting a folder
      // they cannot write (a fifteenth pass left a `.toolwright` of mode 0555 holding a `call`'s audit log).
      if (request.kind === 'directory') fs.mkdirSync(entry, { mode: 0o755 });
      else fs.closeSync(fs.openSync(entry, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o644));
      return { identity: identityOf(fs.lstatSync(entry, { bigint: true })) };
    } catch (error) {
      // There after all (the caller's or someone's): it is covered as it is (`existing`).
      const failure = error as NodeJS.ErrnoException;
      return failure.code === 'EEXIST' ? {} : { error: failure };
    }
  });
  if (made === undefined)
    throw new Error(`the missing protected path '${request.path}' could not be held read-only (its folder is missing, or was swapped for a link); try again`);
  if (made.error !== undefined) {
    throw new Error(`the missing protected path '${request.path}' could not be held read-only (${made.error.code ?? made.error.message}); try again`, {
      cause: made.error,
    });
  }
  return made.identity;
}

/**
 * Removes a placeholder only while it is still the empty thing it was made as (`identity`), inside its own folder
 * reached through no link (`inPinnedFolder`): a folder on the way swapped for a link leaves it in place.
 */
function remove(target: string, kind: PlaceholderRequest['kind'], identity: string): void {
  inPinnedFolder(path.dirname(target), (folder) => {
    const entry = entryOf(folder, path.basename(target));
    try {
      const stat = fs.lstatSync(entry, { bigint: true });
      if (identityOf(stat) !== identity) return;
      if (kind === 'directory') {
        if (stat.isDirectory()) fs.rmdirSync(entry);
      } else if (stat.isFile() && stat.size === 0n) fs.unlinkSync(entry);
    } catch {
      // Not empty any more, or gone: left as it is.
    }
  });
}
