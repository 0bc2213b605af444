import fs from 'node:fs';
import path from 'node:path';

/** Finds symbolic links among the paths from a root down to a path (itself included), each looked at once. */
export class LinksOnTheWay {
  private readonly looked = new Map<string, boolean>();

  constructor(private readonly root: string) {}

  /** The first path from below the root down to `entry` that is a symbolic link, or undefined (a missing one ends the search). */
  first(entry: string): string | undefined {
    const relative = path.relative(this.root, entry);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    let at = this.root;
    for (const segment of relative.split(path.sep)) {
      at = path.join(at, segment);
      let link = this.looked.get(at);
      if (link === undefined) {
        link = lstatOrUndefined(at)?.isSymbolicLink() ?? false;
        this.looked.set(at, link);
      }
      if (link) return at;
    }
    return undefined;
  }
}

export function lstatOrUndefined(entry: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(entry);
  } catch {
    return undefined;
  }
}
