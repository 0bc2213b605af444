import fs from 'node:fs';
import path from 'node:path';
import { errnoOf } from './fs-error.js';
import { isWithin } from './is-within.js';
import { WorkspaceError } from './workspace-error.js';

/** Links followed through one path before it is refused as a loop (Linux's own limit). */
const MAX_LINKS = 40;

/**
 * The canonical form of an absolute lexical path: the realpath of the target when it exists;
 * otherwise the realpath of its nearest existing ancestor plus the missing tail. A dangling link is
 * followed through its text (from its real parent), hop by hop, so `a -> b -> missing` becomes
 * `missing`; a target that leaves `root` is returned as it is, for the caller to refuse.
 * File-system errors from a path changed during the call propagate raw; `WorkspacePolicy` turns
 * them into `WorkspaceError`s.
 */
export function canonicalise(lexical: string, root: string, input: string): { canonical: string; exists: boolean } {
  let pending = lexical;
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    const { existing, stat, tail } = nearestExisting(pending, input);
    if (!stat.isSymbolicLink()) return { canonical: path.join(fs.realpathSync.native(existing), ...tail), exists: tail.length === 0 };
    try {
      return { canonical: path.join(fs.realpathSync.native(existing), ...tail), exists: tail.length === 0 };
    } catch (error) {
      if (!['ENOENT', 'ELOOP', 'ENOTDIR'].includes(errnoOf(error) ?? '')) throw error;
    }
    // A dangling or looping link: follow its text one hop.
    const target = path.resolve(fs.realpathSync.native(path.dirname(existing)), fs.readlinkSync(existing));
    if (!isWithin(root, target)) return { canonical: target, exists: false };
    pending = path.join(target, ...tail);
  }
  throw new WorkspaceError('invalid_path', `'${input}' goes through more than ${MAX_LINKS} symbolic links (a loop); it is refused.`, input);
}

/** The deepest existing prefix of `lexical` (by lstat) and the missing names after it. */
function nearestExisting(lexical: string, input: string): { existing: string; stat: fs.Stats; tail: string[] } {
  let existing = lexical;
  const tail: string[] = [];
  for (;;) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(existing);
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOTDIR') throw new WorkspaceError('not_a_directory', `A parent of '${input}' is a file, not a directory.`, input);
      if (code === 'ELOOP') throw new WorkspaceError('invalid_path', `'${input}' goes through a loop of symbolic links; it is refused.`, input);
      if (code !== 'ENOENT') throw error;
    }
    if (stat) return { existing, stat, tail };
    const parent = path.dirname(existing);
    if (parent === existing)
      throw new WorkspaceError(
        'changed_during_use',
        `No part of '${input}' exists any more, not even the workspace root; it was removed during the call.`,
        input,
      );
    tail.unshift(path.basename(existing));
    existing = parent;
  }
}
