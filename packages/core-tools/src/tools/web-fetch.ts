import { renderedAs } from '@toolwright/registry';
import { getToolContext, tool, type Integer } from '@toolwright/tool';
import { headWithin, modelSize, outputBudget } from '../model-text/output-budget.js';
import type { CoreToolsEnvironment } from '../environment.js';
import { destinationsFor, guardedGet, WebFetchError, type Destinations } from '../web/guarded-request.js';
import { htmlToMarkdown } from '../web/html-to-markdown.js';
import { renderName, renderText } from '../model-text/render-name.js';

/** What `web_fetch` returns. */
export interface WebFetchResult {
  /** The URL fetched last (after redirects). */
  url: string;
  status: Integer;
  contentType: string;
  title?: string;
  /** Markdown for HTML pages (main content only), the text itself for text and JSON: from character `offset`, as much as fits the output budget. */
  content: string;
  /** Number of the first character of `content` in the whole text, counting from 1. */
  offset: Integer;
  /** Characters in the whole text (Markdown or text); more remain when `offset + content.length - 1` is less. */
  totalChars: Integer;
  /** Whether the body was longer than the size cap and cut. */
  truncated: boolean;
  /** Redirects followed, in order. */
  redirects: string[];
  /** Set when the page was too complex to convert to Markdown in time: why; `content` is then its plain text. */
  simplified?: string;
}

/** Room kept for the lines that say where the text stops and how to read on. */
const FOOTER_ROOM = 200;
/** The smallest piece of text returned, whatever the budget and the header's length. */
const MIN_CONTENT = 256;

const TEXTUAL = /^(text\/|application\/(json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|javascript|x-javascript|ecmascript|x-ndjson|yaml|x-yaml|toml|csv)\b)/i;

/** Fetches web pages for the model, refusing internal addresses. */
export class WebFetchTool {
  private readonly destinations: Destinations;

  constructor(private readonly env: CoreToolsEnvironment) {
    this.destinations = destinationsFor('web_fetch', env.web?.allowAddresses, env.web?.allowPorts);
  }

  /**
   * Fetches an http(s) URL and returns its content: HTML pages as Markdown of their main content
   * (navigation, ads and scripts removed; a page too complex to convert in 10 seconds comes back as
   * plain text), text and JSON as they are. Binary content (images, PDF, archives) is refused.
   * Follows up to 5 redirects; reads at most 2 MiB of decompressed body (then `truncated` is true)
   * and gives up after 30 seconds. Only public internet hosts can be reached:
   * localhost, private networks and cloud metadata addresses are refused. Returns as much of the text
   * as fits the call's output budget (about 16 KiB); the last line then gives the `offset` to read on from.
   * @param url The absolute http or https URL, e.g. `https://nodejs.org/api/fs.html`.
   * @param format `markdown` (default) converts HTML; `raw` returns the HTML source unchanged.
   * @param offset Character of the text to start at (1 = the beginning), to read on after a cut.
   */
  @renderedAs(renderWebFetch)
  @tool({
    tier: 'side-effecting',
    group: 'search',
    sideEffects: ['net-read'],
    capabilities: ['net.fetch'],
    determinism: 'non-deterministic',
    timeout: '45s',
    parallel: true,
  })
  async webFetch(
    /** @format uri @maxLength 8192 */ url: string,
    format: 'markdown' | 'raw' = 'markdown',
    /** @minimum 1 */ offset: Integer = 1,
  ): Promise<WebFetchResult> {
    const config = this.env.web ?? {};
    const callSignal = getToolContext()?.signal;
    const timeout = AbortSignal.timeout(config.timeoutMs ?? 30_000);
    const signal = callSignal ? AbortSignal.any([callSignal, timeout]) : timeout;
    const response = await guardedGet(url, this.destinations, {
      maxBytes: config.maxBytes ?? 2 * 1024 * 1024,
      maxRedirects: config.maxRedirects ?? 5,
      signal,
      userAgent: config.userAgent ?? 'Toolwright-web_fetch/0.1 (+https://github.com/toolwright)',
    });
    const contentType = response.contentType.split(';')[0]!.trim().toLowerCase() || 'application/octet-stream';
    const isHtml = contentType === 'text/html' || contentType === 'application/xhtml+xml';
    if (!isHtml && !TEXTUAL.test(contentType) && looksBinary(response.body)) {
      throw new WebFetchError(
        'not_text',
        `${response.url} is ${contentType} (${response.body.length}${response.truncated ? '+' : ''} bytes), not text; web_fetch only returns text, HTML and JSON`,
      );
    }
    const text = decode(response.body, response.contentType);
    // The conversion has its own budget; only the call's end stops it, not the fetch's time limit.
    const page = isHtml && format === 'markdown' ? await htmlToMarkdown(text, { signal: callSignal }) : undefined;
    const whole = page ? page.markdown : text;
    const result: WebFetchResult = {
      url: response.url,
      status: response.status,
      contentType,
      ...(page?.title ? { title: page.title } : {}),
      content: '',
      offset,
      totalChars: whole.length,
      truncated: response.truncated,
      redirects: response.redirects,
      ...(page?.simplified ? { simplified: page.simplified } : {}),
    };
    const room = Math.max(MIN_CONTENT, outputBudget() - modelSize(renderWebFetch(result)) - FOOTER_ROOM);
    result.content = headWithin(whole.slice(offset - 1), room);
    return result;
  }
}

/**
 * Where the text came from on one line, the page title as a heading, the text, then a line saying
 * where it stops and how to read on.
 * @example 'https://example.com/ (200 text/html)\n# Example\n\nSome text.'
 */
export function renderWebFetch(page: WebFetchResult): string {
  const from = page.redirects.length > 0 ? `, after ${page.redirects.length} redirect${page.redirects.length === 1 ? '' : 's'}` : '';
  const lines = [`${renderName(page.url)} (${page.status} ${page.contentType}${from})`];
  if (page.title) lines.push(`# ${renderText(page.title)}`);
  if (page.simplified) lines.push(`[the page was too complex to convert to Markdown (${page.simplified}); this is its text, without links or formatting]`);
  lines.push('', page.content);
  const end = page.offset + page.content.length - 1;
  if (page.offset > page.totalChars && page.totalChars > 0) lines.push(`[the text has ${page.totalChars} characters; there are none from ${page.offset} on]`);
  else if (end < page.totalChars) lines.push(`[characters ${page.offset}–${end} of ${page.totalChars}; read on with offset ${end + 1}]`);
  else if (page.offset > 1) lines.push(`[characters ${page.offset}–${end} of ${page.totalChars}; this is the end of the text]`);
  if (page.truncated) lines.push('[the body was longer than the size cap and was cut there; the rest cannot be fetched]');
  return lines.join('\n');
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function looksBinary(body: Buffer): boolean {
  const sample = body.subarray(0, 4096);
  return sample.includes(0);
}
