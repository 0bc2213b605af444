import fs from 'node:fs';
import picomatch from 'picomatch';
import { readNames } from '../workspace/walk.js';

/** Most words one glob may expand to; more is refused rather than truncated. */
export const MAX_GLOB_MATCHES = 4096;

/**
 * Most directory entries the globs of one command line may look at, together. Expanding runs on the host's event
 * loop before the command starts: without a bound, a glob matching nothing (`dir/*` then `nomatch*`) over a tree the model made of a million files
 * (four `cp -r` calls) would hold every other call for seconds. Past it the line is refused, saying so.
 */
export const MAX_GLOB_ENTRIES = 200_000;

/** What the globs of one command line may still look at (entries), shared by its words. */
export interface GlobBudget {
  entries: number;
}

export type GlobExpansion = { ok: true; words: string[] } | { ok: false; reason: string };

// bash's rules without extglob, globstar or brace expansion: `*` and `?` never match a leading dot
// or a `/`, `[!a]` and `[[:alpha:]]` are brackets. Dot and dot-dot are never produced (globskipdots).
// `literalBrackets: false`: picomatch would otherwise also let `[n]` match a file named `[n]`.
const OPTIONS: picomatch.PicomatchOptions = {
  dot: false,
  nobrace: true,
  noextglob: true,
  noglobstar: true,
  posix: true,
  nonegate: true,
  literalBrackets: false,
};

/**
 * Expands a pattern from `expandWord` against the file system, as bash does before the program
 * starts: segment by segment from `cwd`, sorted, and the word itself when nothing matches. Each
 * directory is checked with `canRead` before it is listed, so a glob never lists a directory outside
 * the workspace. A match that would start with `-` is written `./-name`: a file name can never turn
 * into an option of the program (`find -de*` with a file named `-delete`).
 * @example `src/*.ts` from the root → `['src/a.ts', 'src/b.ts']`
 */
export function expandGlob(
  pattern: string,
  literal: string,
  cwd: string,
  canRead: (dir: string) => string | undefined,
  budget: GlobBudget = { entries: MAX_GLOB_ENTRIES },
): GlobExpansion {
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/').filter((s, i) => s !== '' || i === 0);
  let found: string[] = [absolute ? '/' : ''];
  for (const segment of absolute ? segments.slice(1) : segments) {
    if (segment === '') continue;
    const next: string[] = [];
    if (!hasMeta(segment)) {
      const name = segment.replace(/\\(.)/g, '$1');
      for (const prefix of found) next.push(join(prefix, name));
    } else {
      // picomatch reads an escaped character after a leading class as a regex one (`[[:alpha:]]\.x` matches `ayx`).
      if (/\[\[:[a-z]+:\]/.test(segment))
        return {
          ok: false,
          reason: `character classes such as [[:alpha:]] ('${literal}') are not supported in globs here; list the files or use the glob tool`,
        };
      const matches = picomatch.makeRe(segment, OPTIONS);
      for (const prefix of found) {
        const dir = located(cwd, prefix || '.');
        const refused = canRead(dir);
        if (refused) return { ok: false, reason: `the glob '${literal}' would list a directory that is refused: ${refused}` };
        const listed = matchingNames(dir, matches, budget);
        if (listed === 'over budget')
          return {
            ok: false,
            reason: `the globs of this command would look at more than ${MAX_GLOB_ENTRIES} directory entries ('${literal}' among them); narrow them or name the files`,
          };
        if (listed === 'undecodable')
          return {
            ok: false,
            reason: `the glob '${literal}' would list a folder holding a name that is not UTF-8, which bash would expand as it is and the judge cannot read the same; rename it or name the files`,
          };
        for (const name of listed.sort()) {
          next.push(join(prefix, name));
          if (next.length > MAX_GLOB_MATCHES) return { ok: false, reason: `the glob '${literal}' matches more than ${MAX_GLOB_MATCHES} files; narrow it` };
        }
      }
    }
    found = next;
    if (found.length === 0) break;
  }
  const words = found.filter((word) => word !== '/' && exists(located(cwd, word)));
  if (words.length === 0) return { ok: true, words: [literal] };
  return { ok: true, words: words.map((word) => (word.startsWith('-') ? `./${word}` : word)) };
}

/**
 * The names in `dir` that `matches` takes, read a batch at a time and counted against `budget` (none where it cannot
 * be listed); 'undecodable' when it holds a name that is not UTF-8, which bash would expand as its bytes and the judge
 * cannot read the same.
 */
function matchingNames(dir: string, matches: RegExp, budget: GlobBudget): string[] | 'over budget' | 'undecodable' {
  let listed: ReturnType<typeof readNames>;
  try {
    listed = readNames(dir, Math.max(0, budget.entries));
  } catch {
    return [];
  }
  if (listed.more) return 'over budget';
  budget.entries -= listed.names.length;
  if (listed.skipped) return 'undecodable';
  return listed.names.map((entry) => entry.name).filter((name) => matches.test(name));
}

function hasMeta(segment: string): boolean {
  return /[*?[]/.test(segment.replace(/\\./g, ''));
}

function join(prefix: string, name: string): string {
  if (prefix === '') return name;
  return prefix.endsWith('/') ? `${prefix}${name}` : `${prefix}/${name}`;
}

/**
 * `relative` read from `cwd` as the kernel reads it: not normalised, so `link/..` is the parent of
 * the link's target, as for bash's own opendir (path.resolve would drop `link/..` as text).
 */
function located(cwd: string, relative: string): string {
  return relative.startsWith('/') ? relative : `${cwd}/${relative}`;
}

function exists(file: string): boolean {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR (`notes.txt/f`), ELOOP, EACCES: nothing bash could match either
  }
}
