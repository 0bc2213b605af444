import fs from 'node:fs';
import { openCheckedFile, readBounded } from '../workspace/confined-file.js';
import { walk } from '../workspace/walk.js';
import { compileQuery, pathFilter, type MatchedLine, type MatchLines, type SearchQuery } from './search-query.js';

/**
 * The built-in engine: walks the tree (.gitignore respected, .git and symlinks skipped), skips
 * binary and oversized files (naming the oversized ones in `tooLarge`), and runs one regex over
 * each file's text, recording matching lines. Each file is opened without following links and
 * checked, and read no further than the size cap, so a file swapped during the walk is skipped.
 */
export function builtinSearch(root: string, query: SearchQuery, signal?: AbortSignal, tooLarge?: string[]): MatchLines {
  const regex = compileQuery(query);
  const accept = pathFilter(query);
  const found: MatchLines = new Map();
  for (const entry of walk(root).entries) {
    if (signal?.aborted) break;
    if (entry.kind !== 'file' || !accept(entry.relative)) continue;
    if (entry.size > query.maxFileBytes) {
      tooLarge?.push(entry.relative);
      continue;
    }
    const buffer = readSearchedFile(root, entry.relative, query.maxFileBytes, tooLarge);
    if (!buffer || buffer.includes(0)) continue; // unreadable, grown past the cap, or binary as ripgrep judges it
    const text = buffer.toString('utf8');
    const lines = matchingLines(text, regex);
    if (lines.length > 0) found.set(entry.relative, lineTexts(text, lines));
  }
  return found;
}

/** A searched file's bytes, or undefined when it is gone, swapped, not a regular file or over the cap. */
export function readSearchedFile(root: string, relative: string, maxBytes: number, tooLarge?: string[]): Buffer | undefined {
  let fd: number;
  try {
    fd = openCheckedFile({ absolute: `${root}/${relative}`, relative, root });
  } catch {
    return undefined;
  }
  try {
    return readBounded(fd, maxBytes, relative, () => 'over the cap');
  } catch (error) {
    if ((error as { code?: string }).code === 'too_large') tooLarge?.push(relative);
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** The text of the given lines (ascending), without line endings. */
function lineTexts(text: string, numbers: number[]): MatchedLine[] {
  const out: MatchedLine[] = [];
  let line = 1;
  let start = 0;
  for (const wanted of numbers) {
    while (line < wanted) {
      start = text.indexOf('\n', start) + 1;
      line++;
    }
    const end = text.indexOf('\n', start);
    const raw = end === -1 ? text.slice(start) : text.slice(start, end);
    out.push({ line: wanted, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw });
  }
  return out;
}

/** Line numbers (1-based) with at least one match; the regex must have the g and m flags. */
export function matchingLines(text: string, regex: RegExp): number[] {
  const lines: number[] = [];
  regex.lastIndex = 0;
  let line = 1;
  let scanned = 0;
  let match: RegExpExecArray | null;
  while ((match = regex.exec(text)) !== null) {
    for (let i = text.indexOf('\n', scanned); i !== -1 && i < match.index; i = text.indexOf('\n', i + 1)) line++;
    scanned = match.index;
    if (lines[lines.length - 1] !== line) lines.push(line);
    // Continue at the next line: one entry per line, and empty matches cannot loop.
    const next = text.indexOf('\n', match.index);
    if (next === -1) break;
    line++;
    scanned = next + 1;
    regex.lastIndex = next + 1;
  }
  return lines;
}
