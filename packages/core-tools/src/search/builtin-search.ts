import { openCheckedFile, readConfined } from '../workspace/confined-file.js';
import { walkWorkspace } from '../workspace/tree-scan.js';
import type { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { runRegexJob } from './regex-worker.js';
import { compileQuery, pathFilter, type MatchedLine, type MatchLines, type SearchQuery } from './search-query.js';

/** Text handed to the regex worker at once: large enough to amortise a round trip, small enough for its budget. */
const BATCH_CHARS = 1 << 20;

/**
 * The built-in engine: walks the tree (.gitignore respected, .git, symlinks and hidden paths skipped), skips
 * binary and oversized files (naming the oversized ones in `tooLarge`), and runs one regex over
 * each file's text, recording matching lines. Each file is opened without following links and
 * checked, and read no further than the size cap, so a file swapped during the walk is skipped.
 * The regex runs in the regex worker, in batches of files, each under its own time budget
 * (`runRegexJob`): a pattern that backtracks catastrophically is stopped with `PatternTooSlowError`.
 */
export async function builtinSearch(
  workspace: WorkspacePolicy,
  root: string,
  query: SearchQuery,
  signal?: AbortSignal,
  tooLarge?: string[],
): Promise<MatchLines> {
  const regex = compileQuery(query);
  const accept = pathFilter(query);
  const found: MatchLines = new Map();
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
          const lines = results[i] ?? [];
          if (lines.length > 0) found.set(file, lineTexts(text, lines));
        });
      },
    );
    matching.catch(() => undefined); // awaited by the next flush or at the end
  };
  for (const entry of walkWorkspace(workspace, root).entries) {
    if (signal?.aborted) break;
    if (entry.kind !== 'file' || !accept(entry.relative)) continue;
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
  if (batch.length > 0 && !signal?.aborted) await flush();
  await matching;
  return found;
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
    out.push({ line: wanted, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw });
  }
  return out;
}
