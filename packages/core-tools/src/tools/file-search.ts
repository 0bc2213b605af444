import { renderedAs } from '@toolwright/registry';
import { getToolContext, tool, type Integer } from '@toolwright/tool';
import { count, modelSize, outputBudget } from '../model-text/output-budget.js';
import type { CoreToolsEnvironment } from '../environment.js';
import { builtinSearch, readSearchedFile } from '../search/builtin-search.js';
import { LineIndex } from '../search/line-index.js';
import { confirmReportedLines, findRipgrep, ripgrepSearch } from '../search/ripgrep-search.js';
import { ripgrepExclusions } from '../search/ripgrep-exclusions.js';
import { SearchSandbox } from '../search/search-sandbox.js';
import { resolvedShellConfig } from '../shell/shell-config.js';
import {
  compileQuery,
  MAX_FILE_BYTES,
  MAX_LINE_CHARS,
  MAX_MATCHED_LINES,
  type MatchLines,
  type SearchFindings,
  type SearchQuery,
} from '../search/search-query.js';
import { renderName } from '../model-text/render-name.js';
import { withWorkspaceErrors } from '../workspace/fs-error.js';
import { walkCap } from '../workspace/walk-cap.js';
import { useAsJudged } from '../as-judged.js';

/** One matching line. */
export interface SearchMatch {
  /** File path relative to the searched directory. */
  path: string;
  line: Integer;
  /** The line's text (cut at 500 characters). */
  text: string;
  /** Lines before it, when context was asked for. */
  before?: string[];
  /** Lines after it, when context was asked for. */
  after?: string[];
}

/** What `file_search` returns. */
export interface FileSearchResult {
  matches: SearchMatch[];
  /** Number of files with at least one match. */
  files: Integer;
  /** Whether matching lines remain after the last one returned (past `maxResults` or the output budget). */
  truncated: boolean;
  /** Number of the first match returned, counting from 1 (the `offset` asked for). */
  offset: Integer;
  /** Which engine ran: ripgrep where the machine has it and the kernel sandbox to run it in, else the built-in search (same results). */
  engine: 'ripgrep' | 'builtin';
  /**
   * What was not searched: files over the 10 MiB limit (named by the built-in engine; ripgrep skips
   * them silently), and where a cap stopped the search (entries walked, matching lines kept).
   */
  note?: string;
}

const MAX_NAMED_SKIPS = 20;
/** Room kept for the line that says where the matches stop (the note of skipped files is counted apart). */
const FOOTER_ROOM = 300;

/** Searches file contents in the workspace. */
export class FileSearchTool {
  /** Where ripgrep runs: the kernel sandbox, in the shell's mode and limits (without it, the built-in engine searches). */
  private readonly sandbox: SearchSandbox;

  constructor(private readonly env: CoreToolsEnvironment) {
    // A disabled shell has no sandbox settings: the sandbox is used where it works, with its default limits.
    const shell = resolvedShellConfig(env.shell);
    this.sandbox =
      shell.backend === 'disabled'
        ? new SearchSandbox(env.workspace, 'auto')
        : new SearchSandbox(env.workspace, shell.unjudged ? 'required' : (shell.sandbox ?? 'auto'), shell.limits ?? {});
  }

  /**
   * Searches the text of files under `path` for a regular expression (JavaScript syntax) or, with
   * `literal: true`, for exact text, and returns the matching lines with their file and line number,
   * sorted by path and line. Case: `smart` (default) ignores case unless the pattern has a capital
   * letter. `include`/`exclude` are globs such as `*.ts` or `src/**`; a glob without `/` matches
   * file names anywhere. Files ignored by `.gitignore`, the `.git` and `.toolwright` folders, paths a
   * policy rule hides, binary files and files over 10 MiB are skipped. Returns at most `maxResults`
   * lines (default 200) and no more than fits the call's output budget, grouped by file (`12:text`
   * per matching line); when more matched, the last line gives the `offset` to read on from (or
   * narrow the search).
   * @param pattern The regular expression, e.g. `function\s+load\w*`, or text with `literal: true`.
   * @param path Directory to search (default: the workspace root).
   * @param literal Search for the pattern as plain text, not a regular expression.
   * @param caseMode `smart` (default), `sensitive` or `insensitive`.
   * @param include Only files matching one of these globs.
   * @param exclude Skip files matching any of these globs.
   * @param context Lines of context to return before and after each match.
   * @param maxResults Most matching lines to return.
   * @param offset Number of the first matching line to return (1 = the first), to read on after a cut.
   */
  @renderedAs(renderFileSearch)
  @tool({ tier: 'read-only', group: 'search', sideEffects: ['fs-read'], capabilities: ['fs.read'], determinism: 'deterministic', timeout: '60s' })
  async fileSearch(
    /** @minLength 1 @maxLength 1000 */ pattern: string,
    path: string = '.',
    literal: boolean = false,
    caseMode: 'smart' | 'sensitive' | 'insensitive' = 'smart',
    /** @maxItems 50 */ include: string[] = [],
    /** @maxItems 50 */ exclude: string[] = [],
    /** @minimum 0 @maximum 10 */ context: Integer = 0,
    /** @minimum 1 @maximum 5000 */ maxResults: Integer = 200,
    /** @minimum 1 */ offset: Integer = 1,
  ): Promise<FileSearchResult> {
    return withWorkspaceErrors(path, async () => {
      const root = useAsJudged(this.env.workspace.resolve(path, { mustExist: true, kind: 'directory' }), 'path', path).absolute;
      const query: SearchQuery = { pattern, literal, caseMode, include, exclude, maxFileBytes: MAX_FILE_BYTES };
      compileQuery(query); // the same patterns are refused whichever engine runs
      const signal = getToolContext()?.signal;
      const binary = this.env.ripgrep === undefined ? findRipgrep() : this.env.ripgrep;
      let engine: FileSearchResult['engine'] = 'builtin';
      let findings: SearchFindings | undefined;
      if (binary) {
        findings = await ripgrepSearch(binary, root, query, this.sandbox, signal, ripgrepExclusions(this.env.workspace, root));
        if (findings) engine = 'ripgrep';
      }
      const tooLarge: string[] = [];
      let stoppedAfter: number | undefined;
      if (!findings) {
        const builtin = await builtinSearch(this.env.workspace, root, query, signal, tooLarge, walkCap(this.env));
        findings = builtin;
        if (builtin.progress.capped && !builtin.linesCapped) stoppedAfter = builtin.progress.visited;
      }
      // Whatever the engine reported, nothing a deny rule hides is returned or counted.
      for (const file of findings.found.keys()) if (this.env.workspace.deniedAt(`${root}/${file}`)) findings.found.delete(file);
      const notes = [
        ...(tooLarge.length > 0 ? [skippedNote(tooLarge)] : []),
        ...(stoppedAfter !== undefined ? [capNote(stoppedAfter)] : []),
        ...(findings.linesCapped ? [LINES_CAP_NOTE] : []),
      ];
      const note = notes.length > 0 ? notes.join(' ') : undefined;
      const room = outputBudget() - FOOTER_ROOM - (note ? modelSize(note) + 3 : 0);
      const collected = collect(root, findings.found, { context, offset, maxResults, room }, engine);
      return { ...collected, truncated: collected.truncated || findings.linesCapped, ...(note ? { note } : {}) };
    });
  }
}

const LINES_CAP_NOTE = `The search stopped after ${count(MAX_MATCHED_LINES)} matching lines (the cap on one call), so the counts above are partial: narrow the pattern, the path or the files (include).`;

function capNote(visited: number): string {
  return `The search stopped after looking at ${count(visited)} entries (the cap on one call); files further on were not searched: search a subdirectory (path) or name the files with include.`;
}

function skippedNote(tooLarge: string[]): string {
  const named = [...tooLarge].sort().slice(0, MAX_NAMED_SKIPS).map(renderName).join(', ');
  const more = tooLarge.length > MAX_NAMED_SKIPS ? ` and ${tooLarge.length - MAX_NAMED_SKIPS} more` : '';
  return `${tooLarge.length} file${tooLarge.length === 1 ? ' was' : 's were'} not searched because ${tooLarge.length === 1 ? 'it is' : 'they are'} over the ${MAX_FILE_BYTES / 1024 / 1024} MiB limit: ${named}${more}. Read ${tooLarge.length === 1 ? 'it' : 'them'} in parts with file_read.`;
}

/**
 * The matches sorted by path then line, from the `offset`-th on, as many as `maxResults` and `room`
 * allow, with context read from the files when asked for. Lines ripgrep reported are returned only
 * once confirmed in the file read here without following links (see `confirmReportedLines`).
 */
function collect(
  root: string,
  found: MatchLines,
  page: { context: number; offset: number; maxResults: number; room: number },
  engine: FileSearchResult['engine'],
): FileSearchResult {
  const { context, maxResults, room } = page;
  const files = [...found.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const matches: SearchMatch[] = [];
  const cut = (text: string) => (text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text);
  let skip = page.offset - 1;
  let used = 0;
  let full = false;
  let total = 0;
  let fileCount = 0;
  for (const file of files) {
    let lines = found.get(file)!.sort((a, b) => a.line - b.line);
    let index: LineIndex | undefined;
    if (!full) {
      if (context > 0) index = new LineIndex(readSearchedFile(root, file, MAX_FILE_BYTES) ?? Buffer.alloc(0));
      if (engine === 'ripgrep') {
        lines = index
          ? lines.filter(({ line, text }) => index!.line(line) === text)
          : confirmReportedLines(root, file, lines.slice(0, skip + maxResults - matches.length), MAX_FILE_BYTES);
        if (lines.length === 0) continue;
      }
    }
    fileCount++;
    total += found.get(file)!.length;
    for (const { line, text } of lines) {
      if (full) break;
      if (skip > 0) {
        skip--;
        continue;
      }
      const match: SearchMatch = {
        path: file,
        line,
        text: cut(text),
        ...(index ? { before: index.lines(line - context, line - 1).map(cut), after: index.lines(line + 1, line + context).map(cut) } : {}),
      };
      // An upper bound of what the rendering adds: the lines, and the file's heading when it starts.
      const size = modelSize(matchLines(match).join('\n')) + 1 + (matches.at(-1)?.path === file ? 0 : modelSize(renderName(file)) + 2);
      if (matches.length >= maxResults || (matches.length > 0 && used + size > room)) {
        full = true;
        break;
      }
      matches.push(match);
      used += size;
    }
  }
  return { matches, files: fileCount, truncated: total > page.offset - 1 + matches.length, offset: page.offset, engine };
}

/** A match and its context as lines of ripgrep's `--heading` format: `12:text` for the match, `11-text` around it. */
function matchLines(match: SearchMatch): string[] {
  const first = match.line - (match.before?.length ?? 0);
  return [
    ...(match.before ?? []).map((text, i) => `${first + i}-${text}`),
    `${match.line}:${match.text}`,
    ...(match.after ?? []).map((text, i) => `${match.line + 1 + i}-${text}`),
  ];
}

/**
 * ripgrep's `--heading` format: each file's path on a line of its own, then its matching lines as
 * `12:text` and context lines as `11-text` (overlapping context shown once, `--` between separate
 * groups), a blank line between files; then what was skipped and where to read on.
 * @example 'src/load.ts\n1:export function loadConfig() {}\n[matches 1–1 shown; more matched (in 3 files in all): read on with offset 2, ...]'
 */
export function renderFileSearch(result: FileSearchResult): string {
  const lines: string[] = [];
  let file: string | undefined;
  let lastLine = 0;
  for (const match of result.matches) {
    if (match.path !== file) {
      if (file !== undefined) lines.push('');
      lines.push(renderName(match.path));
      file = match.path;
      lastLine = 0;
    }
    const first = match.line - (match.before?.length ?? 0);
    if (lastLine > 0 && first > lastLine + 1 && match.before !== undefined) lines.push('--');
    matchLines(match).forEach((line, i) => {
      if (first + i > lastLine) lines.push(line);
    });
    lastLine = Math.max(lastLine, match.line + (match.after?.length ?? 0));
  }
  if (result.matches.length === 0) lines.push(result.offset > 1 ? `[no matches from match ${result.offset} on]` : '[no matches]');
  if (result.truncated && result.matches.length > 0) {
    const from = result.offset;
    lines.push(
      `[matches ${from}–${from + result.matches.length - 1} shown; more matched (in ${result.files} file${result.files === 1 ? '' : 's'} in all): read on with offset ${from + result.matches.length}, or narrow the search]`,
    );
  }
  if (result.note) lines.push(`[${result.note}]`);
  return lines.join('\n');
}
