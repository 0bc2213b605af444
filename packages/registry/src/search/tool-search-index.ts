import { createHash } from 'node:crypto';
import MiniSearch, { type AsPlainObject, type Options } from 'minisearch';
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
 * A search index built ahead of time (`toolwright emit --search-index`, `buildSearchIndex`), for a process that would
 * otherwise build it on its first search. Each tool's entry holds while the tool's searched text is the one indexed
 * (`tools`): a registry loads the index, drops the entries of tools it lacks or that changed, and indexes the tools
 * it has beyond them (the core tools beside a project's own, say).
 */
export interface SearchIndexData {
  format: typeof SEARCH_INDEX_FORMAT;
  /** sha-256 of each indexed tool's searched text (and the index's settings), by name. */
  tools: Record<string, string>;
  /** MiniSearch's own serialisation of the index. */
  index: AsPlainObject;
}

export const SEARCH_INDEX_FORMAT = 'toolwright-search-index-1';

const OPTIONS: Options<ToolSearchText & { id: string }> = {
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
};

/**
 * A BM25 index (MiniSearch's BM25+) over the declarations of a set of tools: their names split into words,
 * descriptions, parameter names and descriptions, tags and group.
 */
export class ToolSearchIndex {
  private readonly index: MiniSearch<ToolSearchText & { id: string }>;
  /** Whether the index was loaded from data built ahead of time (`true`; the tools it lacked indexed since) or built here. */
  readonly prebuilt: boolean;

  /** Loads `prebuilt` (dropping what no longer holds, adding what it lacks) or builds the index afresh. */
  constructor(
    private readonly declarations: ReadonlyMap<string, ToolDeclaration>,
    prebuilt?: SearchIndexData,
  ) {
    const texts = [...declarations.values()].map((d) => ({ id: d.name, ...toolSearchText(d) }));
    const hashes = new Map(texts.map((text) => [text.id, textHash(text)]));
    // Worth loading when most of it holds; a handful of tools of its own is quicker to index afresh.
    const holding = prebuilt ? Object.entries(prebuilt.tools).filter(([name, hash]) => hashes.get(name) === hash).length : 0;
    this.prebuilt = prebuilt !== undefined && holding > 0 && holding >= texts.length / 2;
    if (!this.prebuilt) {
      this.index = new MiniSearch(OPTIONS);
      this.index.addAll(texts);
      return;
    }
    this.index = MiniSearch.loadJS(prebuilt!.index, OPTIONS);
    for (const [name, hash] of Object.entries(prebuilt!.tools)) if (hashes.get(name) !== hash && this.index.has(name)) this.index.discard(name);
    this.index.addAll(texts.filter((text) => prebuilt!.tools[text.id] !== hashes.get(text.id)));
  }

  /** The index as data to load later (`SearchIndexData`). */
  toData(): SearchIndexData {
    const texts = [...this.declarations.values()].map((d) => ({ id: d.name, ...toolSearchText(d) }));
    return { format: SEARCH_INDEX_FORMAT, tools: Object.fromEntries(texts.map((text) => [text.id, textHash(text)])), index: this.index.toJSON() };
  }

  search(query: string, options: ToolSearchOptions = {}): ToolSearchMatch[] {
    const limit = checkedLimit(options.limit);
    checkQuery(query);
    return this.index
      .search(query)
      .filter((result) => this.declarations.has(result.id as string))
      .slice(0, limit)
      .map((result) => ({ name: result.id as string, score: result.score, declaration: this.declarations.get(result.id as string)! }));
  }
}

/** The index of a set of declarations, built now, as data (`toolwright emit --search-index` writes it). */
export function buildSearchIndex(declarations: readonly ToolDeclaration[]): SearchIndexData {
  // In name order: the same tools give the same file, whatever order they were found in.
  const sorted = [...declarations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return new ToolSearchIndex(new Map(sorted.map((d) => [d.name, d]))).toData();
}

/**
 * Checks that a value read from a file is search index data, throwing `RegistryError` (`invalid_search_index`) with
 * what is wrong; whether it fits the registry's tools is judged tool by tool at the first search (`tools`).
 */
export function checkSearchIndexData(value: unknown): SearchIndexData {
  const data = value as Partial<SearchIndexData> | null;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new RegistryError('invalid_search_index', 'The search index is not an object: write it with `toolwright emit --search-index <file>`.');
  if (data.format !== SEARCH_INDEX_FORMAT)
    throw new RegistryError(
      'invalid_search_index',
      `The search index's format is ${JSON.stringify(data.format)}, not "${SEARCH_INDEX_FORMAT}": write it again with this version's \`toolwright emit --search-index\`.`,
    );
  const tools = data.tools as unknown;
  const badTools = typeof tools !== 'object' || tools === null || Object.values(tools).some((hash) => typeof hash !== 'string');
  if (badTools || typeof data.index !== 'object' || data.index === null)
    throw new RegistryError('invalid_search_index', 'The search index lacks its tools or its index: write it again with `toolwright emit --search-index`.');
  return data as SearchIndexData;
}

/** sha-256 of one tool's searched text, with the index's format and weights (a change to either re-indexes it). */
function textHash(text: ToolSearchText & { id: string }): string {
  return createHash('sha256')
    .update(JSON.stringify([SEARCH_INDEX_FORMAT, BOOST, FIELDS.map((field) => text[field])]))
    .digest('hex');
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
