import fs from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import { renderedAs } from '@toolwright/registry';
import { getToolContext, tool, type Integer } from '@toolwright/tool';
import { headWithin, outputBudget } from '../model-text/output-budget.js';
import { renderName } from '../model-text/render-name.js';
import { runRegexJob } from '../search/regex-worker.js';
import type { CoreToolsEnvironment } from '../environment.js';
import { readConfined, writeFileAtomic, type ConfinedPath } from '../workspace/confined-file.js';
import { contentHash } from '../workspace/content-hash.js';
import { withWorkspaceErrors } from '../workspace/fs-error.js';
import { checkWellFormedContent } from '../workspace/text-rules.js';
import { WorkspaceError } from '../workspace/workspace-error.js';
import { closestRegion, exactMatches, lineOf, tolerantMatches, type Match } from './edit-matching.js';
import { CoreToolError } from '../core-tool-error.js';
import { useAsJudged } from '../as-judged.js';

export interface FileEditResult {
  path: string;
  /** Number of places replaced. */
  replacements: number;
  /** How the text was found: `exact`, `tolerant` (whitespace forgiven), `regex`, or `created`. */
  matchedBy: 'exact' | 'tolerant' | 'regex' | 'created';
  /** Unified diff of the change, cut at a line when longer than the call's output budget. */
  diff: string;
  /** Lines of the diff left out to fit the output budget. */
  diffOmittedLines?: Integer;
  /** sha-256 of the new content (pass it as `expectedHash` to chain edits safely). */
  hash: string;
}

/** Regex edits hand the whole file to the regex worker, whose time budget assumes about a mebibyte. */
const MAX_REGEX_INPUT = 1 << 20;
/** Largest file edited: it is held in memory with its new version and a diff of the two. */
export const MAX_EDIT_BYTES = 16 * 1024 * 1024;
/** Myers' diff is quadratic in the lines changed (20,000 changed lines take a minute): it gives up after this. */
const DIFF_BUDGET_MS = 1_000;
/** Room kept for the summary line and the note of what the diff left out. */
const SUMMARY_ROOM = 400;

/** Edits files inside the workspace by replacing text. */
export class FileEditTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  /**
   * Replaces `oldText` with `newText` in a workspace file and returns a unified diff. By default `oldText`
   * must occur exactly once: copy it from `file_read` output (without the line numbers), with enough
   * surrounding lines to be unique. If it is not found exactly, whitespace differences (indentation, line
   * endings, trailing spaces) are forgiven when that gives a single match. `replaceAll` replaces every
   * occurrence. `mode: "regex"` treats `oldText` as a JavaScript regular expression (`newText` is still
   * inserted literally: `$1` and `$&` are not expanded). An empty `oldText` creates a new file containing
   * `newText`. When the text is not found or is ambiguous, the error shows the closest part of the file.
   * The edit is refused if the file changed since you last read it; read it again first.
   * @param path File to edit, relative to the workspace root.
   * @param oldText The text to replace (empty to create a new file).
   * @param newText The replacement text, inserted exactly as given.
   * @param replaceAll Replace every occurrence instead of requiring exactly one.
   * @param mode `exact` (default) or `regex`.
   * @param expectedHash The file's sha-256 as last seen (the `hash` in file_read's or file_edit's structured output); the edit is refused if the file changed since.
   */
  @renderedAs(renderFileEdit)
  @tool({
    tier: 'side-effecting',
    group: 'edit',
    sideEffects: ['fs-read', 'fs-write'],
    capabilities: ['fs.read', 'fs.write'],
    determinism: 'deterministic',
    timeout: '15s',
  })
  async fileEdit(
    path: string,
    oldText: string,
    newText: string,
    replaceAll: boolean = false,
    mode: 'exact' | 'regex' = 'exact',
    expectedHash?: string,
  ): Promise<FileEditResult> {
    return withWorkspaceErrors(path, () => this.edit(path, oldText, newText, replaceAll, mode, expectedHash));
  }

  private async edit(
    path: string,
    oldText: string,
    newText: string,
    replaceAll: boolean,
    mode: 'exact' | 'regex',
    expectedHash?: string,
  ): Promise<FileEditResult> {
    checkWellFormedContent(newText, '`newText`', path);
    const resolved = useAsJudged(this.env.workspace.resolve(path, { kind: 'file' }), 'path', path);
    if (oldText === '') {
      if (resolved.exists && fs.lstatSync(resolved.absolute).size > 0) {
        throw new WorkspaceError(
          'already_exists',
          `'${path}' already exists; an empty \`oldText\` only creates new files. Give the text to replace, or use file_write to replace the whole file.`,
          path,
        );
      }
      writeFileAtomic(resolved, newText);
      return this.done(resolved.absolute, resolved.relative, '', newText, 1, 'created');
    }
    if (!resolved.exists)
      throw new WorkspaceError('not_found', `'${path}' does not exist. To create it, call file_edit with an empty \`oldText\`, or use file_write.`, path);
    const buffer = readEdited(resolved, path);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buffer);
    } catch {
      throw new WorkspaceError('binary_file', `'${path}' is not valid UTF-8 text; file_edit would corrupt its bytes, so it is refused.`, path);
    }
    const currentHash = contentHash(buffer);
    const lastRead = this.env.readHashes?.get(resolved.absolute);
    if ((expectedHash !== undefined && expectedHash !== currentHash) || (lastRead !== undefined && lastRead !== currentHash)) {
      throw new CoreToolError('stale_read', `'${path}' changed since you last read it; read it again with file_read and redo the edit on its current content.`);
    }
    const { matches, matchedBy } = await this.find(text, oldText, mode, path);
    // A regex edit waited for the worker: another call may have edited the file meanwhile.
    if (mode === 'regex' && contentHash(readEdited(resolved, path)) !== currentHash) {
      throw new CoreToolError(
        'stale_read',
        `'${path}' changed while the edit was being prepared; read it again with file_read and redo the edit on its current content.`,
      );
    }
    if (matches.length === 0) {
      const closest = closestRegion(text, oldText);
      const advice =
        closest.kind === 'found'
          ? `\nThe closest part of the file is:\n${closest.region}\nCopy the exact text from there (without the line numbers) and try again.`
          : closest.kind === 'too_costly'
            ? ' The file repeats the lines of `oldText` too often to show the closest part; read the lines you mean with file_read and copy a shorter, unique text.'
            : ' Read the file again and copy the exact text.';
      throw new CoreToolError(
        'no_match',
        `The text to replace was not found in '${path}'${mode === 'exact' ? ' (not even when ignoring whitespace differences)' : ''}.${advice}`,
      );
    }
    if (matches.length > 1 && !replaceAll) {
      const lines = matches.slice(0, 10).map((m) => lineOf(text, m.start));
      throw new CoreToolError(
        'ambiguous_match',
        `The text to replace occurs ${matches.length} times in '${path}' (at lines ${lines.join(', ')}${matches.length > 10 ? ', …' : ''}). Include more surrounding lines so it is unique, or set replaceAll: true.`,
      );
    }
    let updated = '';
    let cursor = 0;
    for (const match of matches) {
      updated += text.slice(cursor, match.start) + newText;
      cursor = match.end;
    }
    updated += text.slice(cursor);
    checkWellFormedContent(updated, 'The edited text (a match split a character in two)', path);
    writeFileAtomic(resolved, updated);
    return this.done(resolved.absolute, resolved.relative, text, updated, matches.length, matchedBy);
  }

  private async find(
    text: string,
    oldText: string,
    mode: 'exact' | 'regex',
    path: string,
  ): Promise<{ matches: Match[]; matchedBy: FileEditResult['matchedBy'] }> {
    if (mode === 'regex') {
      if (text.length > MAX_REGEX_INPUT)
        throw new WorkspaceError(
          'too_large',
          `'${path}' is larger than ${MAX_REGEX_INPUT} bytes; regex edits are limited to smaller files. Use an exact edit.`,
          path,
        );
      try {
        new RegExp(oldText, 'gm'); // refused here with its syntax error; it runs in the regex worker
      } catch (error) {
        throw new CoreToolError(
          'invalid_pattern',
          `\`oldText\` is not a valid regular expression: ${(error as Error).message}. Correct it, or use mode: "exact" with the literal text.`,
        );
      }
      const [spans = []] = await runRegexJob(
        { mode: 'spans', source: oldText, flags: 'gm', texts: [text] },
        { signal: getToolContext()?.signal, hint: 'or use mode: "exact" with the literal text' },
      );
      const matches: Match[] = [];
      for (let i = 0; i + 1 < spans.length; i += 2) matches.push({ start: spans[i]!, end: spans[i + 1]! });
      return { matches, matchedBy: 'regex' };
    }
    const exact = exactMatches(text, oldText);
    if (exact.length > 0) return { matches: exact, matchedBy: 'exact' };
    return { matches: tolerantMatches(text, oldText), matchedBy: 'tolerant' };
  }

  private done(
    absolute: string,
    relative: string,
    before: string,
    after: string,
    replacements: number,
    matchedBy: FileEditResult['matchedBy'],
  ): FileEditResult {
    const hash = contentHash(after);
    this.env.readHashes?.set(absolute, hash);
    const diff =
      // The diff library quotes a name as git does (`"a/evil\nname"`), so a name cannot add lines to the diff.
      createTwoFilesPatch(`a/${relative}`, `b/${relative}`, before, after, '', '', { context: 3, timeout: DIFF_BUDGET_MS }) ??
      `(no diff: comparing the ${replacements === 1 ? 'change' : `${replacements} changes`} took longer than ${DIFF_BUDGET_MS / 1000} s; read the file with file_read to review it)`;
    const shown = headWithin(diff, outputBudget() - SUMMARY_ROOM - renderName(relative).length);
    if (shown === diff) return { path: relative, replacements, matchedBy, diff, hash };
    const omitted = diff
      .slice(shown.length)
      .split('\n')
      .filter((line, i, all) => i < all.length - 1 || line !== '').length;
    return { path: relative, replacements, matchedBy, diff: shown, diffOmittedLines: omitted, hash };
  }
}

/** The bytes of the file to edit, opened without following links, refused past `MAX_EDIT_BYTES`. */
function readEdited(resolved: ConfinedPath, path: string): Buffer {
  return readConfined(
    resolved,
    MAX_EDIT_BYTES,
    (size) =>
      `'${path}' is ${mebibytes(size)}; file_edit edits files up to ${mebibytes(MAX_EDIT_BYTES)}. Read the part you need with file_read (offset and limit) and change it with a shell tool such as sed, or split the file.`,
    { shown: path },
  );
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
}

const MATCHED_BY: Record<FileEditResult['matchedBy'], string> = {
  exact: 'matched exactly',
  tolerant: 'matched ignoring whitespace differences',
  regex: 'matched by the regular expression',
  created: 'a new file',
};

/**
 * A summary line, then the diff (and what it left out).
 * @example "Edited src/a.ts: 1 replacement (matched exactly).\n--- a/src/a.ts\n+++ b/src/a.ts\n..."
 */
export function renderFileEdit(edit: FileEditResult): string {
  const summary =
    edit.matchedBy === 'created'
      ? `Created ${renderName(edit.path)}.`
      : `Edited ${renderName(edit.path)}: ${edit.replacements} replacement${edit.replacements === 1 ? '' : 's'} (${MATCHED_BY[edit.matchedBy]}).`;
  const diff = edit.diff.endsWith('\n') ? edit.diff.slice(0, -1) : edit.diff;
  const lines = [summary, diff];
  if (edit.diffOmittedLines) lines.push(`[${edit.diffOmittedLines} more lines of the diff did not fit; read the file with file_read to review the change]`);
  return lines.join('\n');
}
