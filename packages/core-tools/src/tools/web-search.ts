import { getToolContext, tool, type Integer } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import type { SearchResult } from '../web/search-provider.js';

/** What `web_search` returns. */
export interface WebSearchResult {
  query: string;
  provider: string;
  results: SearchResult[];
}

/** Searches the web through the configured provider. */
export class WebSearchTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  /**
   * Searches the web and returns up to `limit` results, each with its title, URL and a snippet.
   * Use web_fetch to read a result's page.
   * @param query What to search for, as you would type it into a search engine.
   * @param limit Most results to return.
   */
  @tool({ tier: 'side-effecting', group: 'search', sideEffects: ['net-read'], capabilities: ['net.search'], determinism: 'non-deterministic', timeout: '30s', parallel: true })
  async webSearch(/** @minLength 1 @maxLength 500 */ query: string, /** @minimum 1 @maximum 20 */ limit: Integer = 8): Promise<WebSearchResult> {
    const provider = this.env.web?.search;
    if (!provider) throw new Error('Web search is not configured in this workspace (no search provider); answer from what you know or fetch a known URL with web_fetch.');
    const timeout = AbortSignal.timeout(this.env.web?.timeoutMs ?? 20_000);
    const callSignal = getToolContext()?.signal;
    const results = await provider.search(query.trim(), { limit, signal: callSignal ? AbortSignal.any([callSignal, timeout]) : timeout });
    return { query, provider: provider.name, results: results.filter((r) => /^https?:\/\//.test(r.url)).slice(0, limit) };
  }
}
