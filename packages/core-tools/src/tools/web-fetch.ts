import { getToolContext, tool, type Integer } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { AddressPolicy } from '../web/address-policy.js';
import { guardedGet, WebFetchError, type Destinations } from '../web/guarded-request.js';
import { htmlToMarkdown } from '../web/html-to-markdown.js';
import { PortPolicy } from '../web/port-policy.js';

/** What `web_fetch` returns. */
export interface WebFetchResult {
  /** The URL fetched last (after redirects). */
  url: string;
  status: Integer;
  contentType: string;
  title?: string;
  /** Markdown for HTML pages (main content only), the text itself for text and JSON. */
  content: string;
  /** Whether the body was longer than the size cap and cut. */
  truncated: boolean;
  /** Redirects followed, in order. */
  redirects: string[];
}

const TEXTUAL = /^(text\/|application\/(json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|javascript|x-javascript|ecmascript|x-ndjson|yaml|x-yaml|toml|csv)\b)/i;

/** Fetches web pages for the model, refusing internal addresses. */
export class WebFetchTool {
  private readonly destinations: Destinations;

  constructor(private readonly env: CoreToolsEnvironment) {
    this.destinations = { addresses: new AddressPolicy(env.web?.allowAddresses), ports: new PortPolicy(env.web?.allowPorts) };
  }

  /**
   * Fetches an http(s) URL and returns its content: HTML pages as Markdown of their main content
   * (navigation, ads and scripts removed), text and JSON as they are. Binary content (images, PDF,
   * archives) is refused. Follows up to 5 redirects; reads at most 2 MiB of decompressed body (then
   * `truncated` is true) and gives up after 30 seconds. Only public internet hosts can be reached:
   * localhost, private networks and cloud metadata addresses are refused.
   * @param url The absolute http or https URL, e.g. `https://nodejs.org/api/fs.html`.
   * @param format `markdown` (default) converts HTML; `raw` returns the HTML source unchanged.
   */
  @tool({ tier: 'side-effecting', group: 'search', sideEffects: ['net-read'], capabilities: ['net.fetch'], determinism: 'non-deterministic', timeout: '45s', parallel: true })
  async webFetch(/** @format uri @maxLength 8192 */ url: string, format: 'markdown' | 'raw' = 'markdown'): Promise<WebFetchResult> {
    const config = this.env.web ?? {};
    const callSignal = getToolContext()?.signal;
    const timeout = AbortSignal.timeout(config.timeoutMs ?? 30_000);
    const signal = callSignal ? AbortSignal.any([callSignal, timeout]) : timeout;
    const response = await guardedGet(url, this.destinations, {
      maxBytes: config.maxBytes ?? 2 * 1024 * 1024, maxRedirects: config.maxRedirects ?? 5, signal,
      userAgent: config.userAgent ?? 'Toolwright-web_fetch/0.1 (+https://github.com/toolwright)',
    });
    const contentType = response.contentType.split(';')[0]!.trim().toLowerCase() || 'application/octet-stream';
    const isHtml = contentType === 'text/html' || contentType === 'application/xhtml+xml';
    if (!isHtml && !TEXTUAL.test(contentType) && looksBinary(response.body)) {
      throw new WebFetchError(`${response.url} is ${contentType} (${response.body.length}${response.truncated ? '+' : ''} bytes), not text; web_fetch only returns text, HTML and JSON`);
    }
    const text = decode(response.body, response.contentType);
    const base = { url: response.url, status: response.status, contentType, truncated: response.truncated, redirects: response.redirects };
    if (isHtml && format === 'markdown') {
      const page = htmlToMarkdown(text);
      return { ...base, ...(page.title ? { title: page.title } : {}), content: page.markdown };
    }
    return { ...base, content: text };
  }
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
