import MiniSearch from 'minisearch';
import type { ToolDeclaration } from '@toolwright/schema';
import { RegistryError } from '../registry-error.js';
import { normalizeTerm, searchTokens } from './search-terms.js';
import { toolSearchText, type ToolSearchText } from './tool-search-text.js';

/** One tool that matches a search, best first. */
export interface ToolSearchMatch {
  name: string;
  /** BM25 relevance (higher is better); comparable only within one search. */
  score: number;
  declaration: ToolDeclaration;
}

export interface ToolSearchOptions {
  /** Most matches returned (default 5, at most 100). */
  limit?: number;
}

/** Longest query accepted, in characters: a query is a few words, not a document. */
export const MAX_QUERY_LENGTH = 1000;
export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 100;

/**
 * How much a word found in each field counts. A word of the name says most about the tool, tags and the group are
 * chosen labels, a parameter's words are the least specific (`path` or `limit` belong to many tools).
 */
const BOOST: Record<keyof ToolSearchText, number> = { name: 3, tags: 2, group: 1, description: 1, parameters: 0.5 };
const FIELDS = Object.keys(BOOST) as (keyof ToolSearchText)[];

/**
 * A BM25 index (MiniSearch's BM25+) over the declarations of a set of tools: their names split into words,
 * descriptions, parameter names and descriptions, tags and group.
 */
export class ToolSearchIndex {
  private readonly index = new MiniSearch<ToolSearchText & { id: string }>({
    fields: FIELDS,
    tokenize: searchTokens,
    processTerm: normalizeTerm,
    searchOptions: {
      boost: BOOST,
      // "config" finds "configuration", "deploy" finds "deployment"; short words must match whole.
      prefix: (term) => term.length >= 4,
      // One typo in a long word ("repositry").
      fuzzy: (term) => (term.length >= 6 ? 1 : false),
      weights: { fuzzy: 0.3, prefix: 0.4 },
    },
  });

  constructor(private readonly declarations: ReadonlyMap<string, ToolDeclaration>) {
    this.index.addAll([...declarations.values()].map((d) => ({ id: d.name, ...toolSearchText(d) })));
  }

  search(query: string, options: ToolSearchOptions = {}): ToolSearchMatch[] {
    const limit = checkedLimit(options.limit);
    checkQuery(query);
    return this.index
      .search(query)
      .slice(0, limit)
      .map((result) => ({ name: result.id as string, score: result.score, declaration: this.declarations.get(result.id as string)! }));
  }
}

function checkQuery(query: string): void {
  if (typeof query !== 'string' || query.trim() === '')
    throw new RegistryError('invalid_query', 'The search query is empty; give a few words that say what the tool should do.');
  if (query.length > MAX_QUERY_LENGTH)
    throw new RegistryError(
      'invalid_query',
      `The search query has ${query.length} characters; keep it to a few words (at most ${MAX_QUERY_LENGTH} characters).`,
    );
}

function checkedLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_SEARCH_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)
    throw new RegistryError('invalid_query', `The search limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}, not ${String(limit)}.`);
  return limit;
}
