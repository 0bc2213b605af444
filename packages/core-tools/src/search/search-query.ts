import { CoreToolError } from '../core-tool-error.js';

/** A search as both engines run it. */
export interface SearchQuery {
  pattern: string;
  literal: boolean;
  caseMode: 'smart' | 'sensitive' | 'insensitive';
  include: readonly string[];
  exclude: readonly string[];
  /** Files larger than this are skipped (both engines). */
  maxFileBytes: number;
}

/** One matching line: its number (1-based) and its text without the line ending. */
export interface MatchedLine {
  line: number;
  text: string;
  /** Byte offset of the line's start (ripgrep reports it; the built-in engine reads confined and needs none). */
  offset?: number;
}

/** Where matches are: file path (relative, `/`-separated) → its matching lines, ascending. */
export type MatchLines = Map<string, MatchedLine[]>;

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/**
 * Matching lines one search keeps, at most: past it the engine stops and says so. A pattern such
 * as `.` over a large tree matches millions of lines; each is held until the results are sorted.
 */
export const MAX_MATCHED_LINES = 100_000;
/** Characters of a matching line returned (the built-in engine keeps no more, so a file's text is not held by its matches). */
export const MAX_LINE_CHARS = 500;

/** What an engine found: the matching lines, and whether it stopped at `MAX_MATCHED_LINES`. */
export interface SearchFindings {
  found: MatchLines;
  linesCapped: boolean;
}

/** Whether the search ignores case: smart case ignores it unless the pattern has an upper-case letter. */
export function ignoresCase(query: SearchQuery): boolean {
  return query.caseMode === 'insensitive' || (query.caseMode === 'smart' && !/\p{Lu}/u.test(query.pattern));
}

/** The JavaScript regex of a query (validated here for both engines, so both refuse the same patterns). */
export function compileQuery(query: SearchQuery): RegExp {
  const source = query.literal ? query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : query.pattern;
  try {
    return new RegExp(source, `gmu${ignoresCase(query) ? 'i' : ''}`);
  } catch (error) {
    throw new CoreToolError(
      'invalid_pattern',
      `The pattern is not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}. Pass literal: true to search for the text as it is.`,
    );
  }
}
