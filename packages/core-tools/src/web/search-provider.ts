import { CoreToolError } from '../core-tool-error.js';

/** One search hit. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A web search backend. Adapters: `searxngProvider`, `braveSearchProvider`. */
export interface WebSearchProvider {
  readonly name: string;
  search(query: string, options: { limit: number; signal: AbortSignal }): Promise<SearchResult[]>;
}

/** A search provider's failure, in words the model (and the operator) can act on. */
export class WebSearchError extends CoreToolError {
  constructor(message: string) {
    super('search_failed', message);
    this.name = 'WebSearchError';
  }
}

/** A SearXNG instance's JSON API (`format=json` must be enabled on the instance). */
export function searxngProvider(options: { endpoint: string; apiKey?: string }): WebSearchProvider {
  return {
    name: 'searxng',
    async search(query, { limit, signal }) {
      const url = new URL('search', withSlash(options.endpoint));
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      const body = await getJson(url, { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) }, signal, 'searxng');
      const results = (body as { results?: unknown }).results;
      if (!Array.isArray(results)) throw new WebSearchError('the searxng response has no results array');
      return results.slice(0, limit).map((r: Record<string, unknown>) => hit(r.title, r.url, r.content));
    },
  };
}

/** The Brave Search web API. */
export function braveSearchProvider(options: { apiKey: string; endpoint?: string }): WebSearchProvider {
  return {
    name: 'brave',
    async search(query, { limit, signal }) {
      const url = new URL(options.endpoint ?? 'https://api.search.brave.com/res/v1/web/search');
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(Math.min(limit, 20)));
      const body = await getJson(url, { 'x-subscription-token': options.apiKey }, signal, 'brave');
      const results = (body as { web?: { results?: unknown } }).web?.results ?? [];
      if (!Array.isArray(results)) throw new WebSearchError('the brave response has no web.results array');
      return results.slice(0, limit).map((r: Record<string, unknown>) => hit(r.title, r.url, r.description));
    },
  };
}

async function getJson(url: URL, headers: Record<string, string>, signal: AbortSignal, provider: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal, redirect: 'error' });
  } catch (error) {
    if (signal.aborted) throw new WebSearchError(`the ${provider} search timed out or was cancelled`);
    throw new WebSearchError(`the ${provider} search endpoint could not be reached: ${(error as Error).message}`);
  }
  if (response.status === 401 || response.status === 403)
    throw new WebSearchError(`the ${provider} search provider refused the API key (HTTP ${response.status})`);
  if (response.status === 429) throw new WebSearchError(`the ${provider} search provider is rate-limiting; try again later`);
  if (!response.ok) throw new WebSearchError(`the ${provider} search failed with HTTP ${response.status}`);
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new WebSearchError(`the ${provider} search returned something that is not JSON`);
  }
}

function hit(title: unknown, url: unknown, snippet: unknown): SearchResult {
  return { title: stripTags(text(title)), url: text(url), snippet: stripTags(text(snippet)) };
}

/** A field of a provider's result as text: a string or number as it is; anything else (absent, null, an object) as empty. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function stripTags(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function withSlash(endpoint: string): string {
  return endpoint.endsWith('/') ? endpoint : `${endpoint}/`;
}
