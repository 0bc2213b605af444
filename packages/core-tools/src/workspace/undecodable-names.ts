import fs from 'node:fs';
import path from 'node:path';

/** What a search through names that are not UTF-8 found. */
export interface UndecodableSearch {
  /** The first match, relative to the root, each byte that is not UTF-8 shown as `\xNN`. */
  found?: string;
  /** Whether the bound on entries cut the search short. */
  incomplete: boolean;
}

/**
 * Walks (never following links) what a walk of names as text leaves out — everything at or below a
 * name that is not UTF-8, which decoded would become another name — with the names as bytes, breadth-first,
 * among at most `maxEntries` entries, for a path `matches` accepts (given the path decoded, with U+FFFD
 * for each byte that is not UTF-8: a rule such as `**\/.git` still matches it).
 * @example undecodableMatch('/ws', (p) => p.endsWith('.git'), 20_000) // { found: 'pkg/\xffdir/.git', incomplete: false }
 */
export function undecodableMatch(root: string, matches: (relative: string) => boolean, maxEntries: number): UndecodableSearch {
  const queue: { dir: Buffer; shown: string; decoded: string; odd: boolean }[] = [{ dir: Buffer.from(root), shown: '', decoded: '', odd: false }];
  let seen = 0;
  for (let next = queue.shift(); next; next = queue.shift()) {
    let entries: fs.Dirent<Buffer>[];
    try {
      entries = fs.readdirSync(next.dir, { encoding: 'buffer', withFileTypes: true });
    } catch {
      continue; // unreadable or gone: nothing below it to mount
    }
    for (const entry of entries) {
      if (++seen > maxEntries) return { incomplete: true };
      const raw = entry.name;
      const decoded = raw.toString('utf8');
      const odd = next.odd || !Buffer.from(decoded, 'utf8').equals(raw);
      const relative = next.decoded === '' ? decoded : `${next.decoded}/${decoded}`;
      const shown = next.shown === '' ? escapeBytes(raw) : `${next.shown}/${escapeBytes(raw)}`;
      if (odd && matches(relative)) return { found: shown, incomplete: false };
      if (entry.isDirectory()) queue.push({ dir: Buffer.concat([next.dir, Buffer.from(path.sep), raw]), shown, decoded: relative, odd });
    }
  }
  return { incomplete: false };
}

/** A name's bytes as text, each one that is not part of valid UTF-8 as `\xNN`. */
function escapeBytes(raw: Buffer): string {
  const decoded = raw.toString('utf8');
  if (Buffer.from(decoded, 'utf8').equals(raw)) return decoded;
  return [...raw]
    .map((byte) => (byte >= 0x20 && byte < 0x7f && byte !== 0x5c ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`))
    .join('');
}
