import fs from 'node:fs';
import { onHostExit } from './host-exit.js';

/** A protected path that must not come into being inside the sandbox, and what stands in for it. */
export interface PlaceholderRequest {
  path: string;
  /** An empty directory (`.git`, `.toolwright`) or an empty file (`.env`, a configuration file). */
  kind: 'directory' | 'file';
}

/** Placeholders this process made, by path: how many launches hold each, and what each is. */
const held = new Map<string, { count: number; kind: PlaceholderRequest['kind'] }>();
let removeAtExit = false;

/**
 * A missing protected path (no `.git` yet) has nothing a read-only mount could cover, and a command
 * could create it — a `.git` whose hooks and `core.fsmonitor` the host's git would run. So each
 * missing one is held by an empty placeholder made on the host and mounted read-only in the
 * sandbox, for as long as a sandbox may see it: inside, it can be neither written, replaced nor
 * removed (a mount point). The last `release` removes the placeholder if it is still empty (a
 * person who put something there meanwhile keeps it), as does the process's exit.
 * @returns the placeholders to mount read-only (those missing, made now or held already), and their release (once).
 */
export function holdPlaceholders(requests: readonly PlaceholderRequest[]): { placeholders: string[]; release: () => void } {
  const placeholders: string[] = [];
  for (const request of requests) {
    const holding = held.get(request.path);
    if (holding) {
      holding.count++;
      placeholders.push(request.path);
    } else if (make(request)) {
      held.set(request.path, { count: 1, kind: request.kind });
      placeholders.push(request.path);
    }
  }
  if (placeholders.length > 0 && !removeAtExit) {
    removeAtExit = true;
    onHostExit(removeAll);
  }
  let released = false;
  return {
    placeholders,
    release: () => {
      if (released) return;
      released = true;
      for (const path of placeholders) {
        const holding = held.get(path);
        if (!holding || --holding.count > 0) continue;
        held.delete(path);
        remove(path, holding.kind);
      }
    },
  };
}

/** Whether `path` is a placeholder this process holds now (it exists, but stands for a missing path). */
export function isPlaceholder(path: string): boolean {
  return held.has(path);
}

function removeAll(): void {
  held.forEach((holding, path) => remove(path, holding.kind));
  held.clear();
}

/** Makes the placeholder; false when something exists there already (it is protected as it is). */
function make(request: PlaceholderRequest): boolean {
  try {
    if (request.kind === 'directory') fs.mkdirSync(request.path, { mode: 0o555 });
    else fs.closeSync(fs.openSync(request.path, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o444));
    return true;
  } catch {
    return false;
  }
}

/** Removes a placeholder only while it is still the empty thing it was made as. */
function remove(path: string, kind: PlaceholderRequest['kind']): void {
  try {
    if (kind === 'directory') fs.rmdirSync(path);
    else {
      const stat = fs.lstatSync(path);
      if (stat.isFile() && stat.size === 0) fs.unlinkSync(path);
    }
  } catch {
    // Not empty any more, or gone: left as it is.
  }
}
