import { renderedAs } from '@toolwright/registry';
import { getToolContext, tool, type Integer } from '@toolwright/tool';
import { linesWithin, outputBudget } from '../model-text/output-budget.js';
import { renderName, renderText } from '../model-text/render-name.js';
import type { CoreToolsEnvironment } from '../environment.js';
import type { SearchResult } from '../web/search-provider.js';
import { CoreToolError } from '../core-tool-error.js';

/** What `web_search` returns. */
export interface WebSearchResult {
  query: string;
  provider: string;
  results: SearchResult[];
  /** Results left out so the list fits the call's output budget. */
  omitted?: Integer;
}

/** Room kept for the line that says what was left out. */
const FOOTER_ROOM = 200;

/** Searches the web through the configured provider. */
export class WebSearchTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  /**
   * Searches the web and returns up to `limit` results, each with its title, URL and a snippet.
   * Use web_fetch to read a result's page.
   * @param query What to search for, as you would type it into a search engine.
   * @param limit Most results to return.
   */
  @renderedAs(renderWebSearch)
  @tool({
    tier: 'side-effecting',
    group: 'search',
    sideEffects: ['net-read'],
    capabilities: ['net.search'],
    determinism: 'non-deterministic',
    timeout: '30s',
    parallel: true,
  })
  async webSearch(/** @minLength 1 @maxLength 500 */ query: string, /** @minimum 1 @maximum 20 */ limit: Integer = 8): Promise<WebSearchResult> {
    const provider = this.env.web?.search;
    if (!provider)
      throw new CoreToolError(
        'not_configured',
        'Web search is not configured in this workspace (no search provider); answer from what you know or fetch a known URL with web_fetch.',
      );
    const timeout = AbortSignal.timeout(this.env.web?.timeoutMs ?? 20_000);
    const callSignal = getToolContext()?.signal;
    const results = await provider.search(query.trim(), { limit, signal: callSignal ? AbortSignal.any([callSignal, timeout]) : timeout });
    const kept = results.filter((r) => /^https?:\/\//.test(r.url)).slice(0, limit);
    const shown = linesWithin(kept.map(resultLines), outputBudget() - FOOTER_ROOM);
    return { query, provider: provider.name, results: kept.slice(0, shown), ...(shown < kept.length ? { omitted: kept.length - shown } : {}) };
  }
}

/** A result as three lines: its number and title, its URL, its snippet. */
function resultLines(result: SearchResult, index = 0): string {
  return `${index + 1}. ${renderText(result.title)}\n   ${renderName(result.url)}${result.snippet ? `\n   ${renderText(result.snippet)}` : ''}`;
}

/**
 * The results as a numbered list (title, URL, snippet), then a line saying what was left out.
 * @example '1. Node.js fs\n   https://nodejs.org/api/fs.html\n   File system API'
 */
export function renderWebSearch(search: WebSearchResult): string {
  const lines = search.results.map(resultLines);
  if (lines.length === 0) lines.push(`[no results for "${search.query}"]`);
  if (search.omitted) lines.push(`[${search.omitted} more result${search.omitted === 1 ? '' : 's'} did not fit; ask for fewer (limit) or a narrower query]`);
  return lines.join('\n');
}
