import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test-support/temp-workspace.js';
import { braveSearchProvider, searxngProvider } from '../web/search-provider.js';
import { WebSearchTool, renderWebSearch } from './web-search.js';
import { withBudget } from '../test-support/with-budget.js';
import { modelSize } from '../model-text/output-budget.js';

const ws = tempWorkspace();
let server: http.Server;
let base = '';
const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/searx/search') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          results: [
            { title: 'Node <b>fs</b>', url: 'https://nodejs.org/api/fs.html', content: 'The  fs module' },
            { title: 'Bad', url: 'javascript:alert(1)', content: 'x' },
            { title: 'Second', url: 'https://example.com/2', content: 'two' },
          ],
        }),
      );
    }
    if (url.pathname === '/brave') {
      if (req.headers['x-subscription-token'] !== 'good-key') {
        res.writeHead(401);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ web: { results: [{ title: 'Brave hit', url: 'https://brave.com', description: 'found' }] } }));
    }
    if (url.pathname === '/odd/search') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          results: [
            { title: { text: 'nested' }, url: 'https://example.com/3', content: 42 },
            { title: null, url: ['https://x'] },
          ],
        }),
      );
    }
    if (url.pathname === '/garbage/search') {
      res.writeHead(200);
      return res.end('<html>');
    }
    res.writeHead(500);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  ws.cleanup();
});

describe('web_search', () => {
  it('returns title, url and snippet from a SearXNG endpoint, dropping non-http results', async () => {
    const tool = new WebSearchTool({ ...ws.env, web: { search: searxngProvider({ endpoint: `${base}/searx` }) } });
    const result = await tool.webSearch('node fs', 5);
    expect(result).toEqual({
      query: 'node fs',
      provider: 'searxng',
      results: [
        { title: 'Node fs', url: 'https://nodejs.org/api/fs.html', snippet: 'The fs module' },
        { title: 'Second', url: 'https://example.com/2', snippet: 'two' },
      ],
    });
    expect(seen.at(-1)?.url).toBe('/searx/search?q=node+fs&format=json');
  });

  it('reads a provider field that is neither a string nor a number as empty text, never as [object Object]', async () => {
    const results = await searxngProvider({ endpoint: `${base}/odd` }).search('q', { limit: 5, signal: new AbortController().signal });
    expect(results).toEqual([
      { title: '', url: 'https://example.com/3', snippet: '42' },
      { title: '', url: '', snippet: '' },
    ]);
  });

  it('renders a numbered list, and leaves out what does not fit the output budget, saying so', async () => {
    const tool = new WebSearchTool({ ...ws.env, web: { search: searxngProvider({ endpoint: `${base}/searx` }) } });
    expect(renderWebSearch(await tool.webSearch('node fs', 5))).toBe(
      '1. Node fs\n   https://nodejs.org/api/fs.html\n   The fs module\n2. Second\n   https://example.com/2\n   two',
    );
    const small = await withBudget(280, () => tool.webSearch('node fs', 5));
    expect(small).toMatchObject({ results: [{ title: 'Node fs' }], omitted: 1 });
    expect(modelSize(renderWebSearch(small))).toBeLessThanOrEqual(280);
    expect(renderWebSearch(small).split('\n').at(-1)).toBe('[1 more result did not fit; ask for fewer (limit) or a narrower query]');
    expect(renderWebSearch({ query: 'q', provider: 'x', results: [] })).toBe('[no results for "q"]');
  });

  it('sends the Brave API key and reports a refused key clearly', async () => {
    const good = new WebSearchTool({ ...ws.env, web: { search: braveSearchProvider({ apiKey: 'good-key', endpoint: `${base}/brave` }) } });
    expect((await good.webSearch('q')).results).toEqual([{ title: 'Brave hit', url: 'https://brave.com', snippet: 'found' }]);
    const bad = new WebSearchTool({ ...ws.env, web: { search: braveSearchProvider({ apiKey: 'wrong', endpoint: `${base}/brave` }) } });
    await expect(bad.webSearch('q')).rejects.toThrow('the brave search provider refused the API key (HTTP 401)');
  });

  it('reports provider failures and a missing configuration in words', async () => {
    await expect(new WebSearchTool({ ...ws.env, web: { search: searxngProvider({ endpoint: `${base}/down` }) } }).webSearch('q')).rejects.toThrow(/HTTP 500/);
    await expect(new WebSearchTool({ ...ws.env, web: { search: searxngProvider({ endpoint: `${base}/garbage` }) } }).webSearch('q')).rejects.toThrow(
      'the searxng search returned something that is not JSON',
    );
    await expect(new WebSearchTool(ws.env).webSearch('q')).rejects.toThrow(/not configured/);
  });
});
