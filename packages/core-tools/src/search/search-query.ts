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
