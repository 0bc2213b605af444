import { setImmediate } from 'node:timers/promises';
import { openCheckedFile, readConfined } from '../workspace/confined-file.js';
import { walkWorkspaceAsync } from '../workspace/tree-scan.js';
import type { WalkEntry, WalkProgress } from '../workspace/walk.js';
import type { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { GlobFilter, PATHS_PER_JOB } from './glob-filter.js';
import { runRegexJob } from './regex-worker.js';
import { compileQuery, MAX_LINE_CHARS, MAX_MATCHED_LINES, type MatchedLine, type MatchLines, type SearchFindings, type SearchQuery } from './search-query.js';

/** Text handed to the regex worker at once: large enough to amortise a round trip, small enough for its budget. */
const BATCH_CHARS = 1 << 20;

/** Time the search holds the event loop while it reads files, before it lets other work run. */
const SLICE_MS = 8;

/**
 * The built-in engine: walks the tree (.gitignore respected, .git, symlinks and hidden paths skipped), skips
 * binary and oversized files (naming the oversized ones in `tooLarge`), and runs one regex over
 * each file's text, recording matching lines. Each file is opened without following links and
 * checked, and read no further than the size cap, so a file swapped during the walk is skipped.
 * The regex runs in the regex worker, in batches of files, each under its own time budget
 * (`runRegexJob`): a pattern that backtracks catastrophically is stopped with `PatternTooSlowError`;
 * include/exclude globs are matched in a worker too (`GlobFilter`). The walk looks at no more than
 * `maxVisited` entries (`progress.capped` then says so) and lets other work run as it goes; the
 * search stops at `MAX_MATCHED_LINES` matching lines (`linesCapped`), each kept to `MAX_LINE_CHARS`.
 */
export async function builtinSearch(
  workspace: WorkspacePolicy,
  root: string,
  query: SearchQuery,
  signal?: AbortSignal,
  tooLarge?: string[],
  maxVisited = Infinity,
): Promise<SearchFindings & { progress: WalkProgress }> {
  const regex = compileQuery(query);
  const filter = query.include.length + query.exclude.length > 0 ? new GlobFilter(query.include, query.exclude, { basename: 'without-slash' }) : undefined;
  const found: MatchLines = new Map();
  let matched = 0;
  let linesCapped = false;
  let batch: { file: string; text: string }[] = [];
  let chars = 0;
  // The worker matches one batch while this thread walks and reads the next.
  let matching: Promise<void> = Promise.resolve();
  const flush = async () => {
    const files = batch;
    batch = [];
    chars = 0;
    await matching;
    matching = runRegexJob({ mode: 'lines', source: regex.source, flags: regex.flags, texts: files.map((f) => f.text) }, { signal, hint: SEARCH_HINT }).then(
      (results) => {
        files.forEach(({ file, text }, i) => {
          const lines = (results[i] ?? []).slice(0, MAX_MATCHED_LINES - matched);
          if (lines.length === 0) return;
          found.set(file, lineTexts(text, lines));
          matched += lines.length;
          linesCapped ||= matched >= MAX_MATCHED_LINES;
        });
      },
    );
    matching.catch(() => undefined); // awaited by the next flush or at the end
  };
  let candidates: WalkEntry[] = [];
  const read = async () => {
    const entries = candidates;
    candidates = [];
    const selected = filter
      ? await filter.select(
          entries.map((e) => e.relative),
          signal,
        )
      : undefined;
    let sliceStart = performance.now();
    for (const [i, entry] of entries.entries()) {
      if (selected && !selected[i]) continue;
      if (performance.now() - sliceStart > SLICE_MS) {
        await setImmediate();
        signal?.throwIfAborted();
        sliceStart = performance.now();
      }
      if (entry.size > query.maxFileBytes) {
        tooLarge?.push(entry.relative);
        continue;
      }
      const buffer = readSearchedFile(root, entry.relative, query.maxFileBytes, tooLarge);
      if (!buffer || buffer.includes(0)) continue; // unreadable, grown past the cap, or binary as ripgrep judges it
      const text = buffer.toString('utf8');
      if (chars > 0 && chars + text.length > BATCH_CHARS) await flush();
      batch.push({ file: entry.relative, text });
      chars += text.length;
    }
  };
  const progress = await walkWorkspaceAsync(workspace, root, { maxVisited, signal }, async (entry) => {
    if (entry.kind !== 'file') return;
    candidates.push(entry);
    if (candidates.length >= PATHS_PER_JOB) await read();
    return linesCapped ? 'stop' : undefined;
  });
  if (!linesCapped) await read();
  if (batch.length > 0 && !linesCapped) await flush();
  await matching;
  return { found, linesCapped, progress };
}

const SEARCH_HINT = 'or search for plain text with literal: true';

/** A searched file's bytes, or undefined when it is gone, swapped, not a regular file or over the cap. */
export function readSearchedFile(root: string, relative: string, maxBytes: number, tooLarge?: string[]): Buffer | undefined {
  try {
    return readConfined({ absolute: `${root}/${relative}`, relative, root }, maxBytes, () => 'over the cap', { open: openCheckedFile });
  } catch (error) {
    if ((error as { code?: string }).code === 'too_large') tooLarge?.push(relative);
    return undefined;
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
    const content = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // A copy of the line's start: a slice would keep the whole file's text alive as long as the match.
    out.push({ line: wanted, text: Buffer.from(content.slice(0, MAX_LINE_CHARS + 1)).toString() });
  }
  return out;
}
