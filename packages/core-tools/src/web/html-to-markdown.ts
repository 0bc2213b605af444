import type { Readability as ReadabilityClass } from '@mozilla/readability';
import type TurndownServiceClass from 'turndown';

/**
 * The part of linkedom's DOM used here. linkedom types `parseHTML` with the DOM lib's `Window`, which
 * this project does not load (it runs on Node), so its own types do not resolve.
 */
interface HtmlElement {
  readonly textContent: string | null;
  readonly innerHTML: string;
  remove(): void;
}
interface HtmlDocument {
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): Iterable<HtmlElement>;
  toString(): string;
}
type ParseHTML = (html: string) => { document: HtmlDocument };

// Loaded on first use: the DOM, readability and turndown cost ~0.4 s to load, and most sessions never fetch a page.
let libraries: { Readability: typeof ReadabilityClass; parseHTML: ParseHTML; TurndownService: typeof TurndownServiceClass } | undefined;
function load() {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded synchronously on first use, not when the module loads */
  libraries ??= {
    Readability: (require('@mozilla/readability') as { Readability: typeof ReadabilityClass }).Readability,
    parseHTML: (require('linkedom') as { parseHTML: ParseHTML }).parseHTML,
    TurndownService: require('turndown') as typeof TurndownServiceClass,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return libraries;
}

export interface ConvertedPage {
  title?: string;
  markdown: string;
  /** Whether readability found an article (else the whole body was converted). */
  extracted: boolean;
}

/**
 * HTML to Markdown: readability extracts the article (dropping navigation, ads and scripts), then
 * turndown converts it. Pages readability cannot handle are converted whole, minus scripts and styles.
 */
export function htmlToMarkdown(html: string): ConvertedPage {
  const { Readability, parseHTML, TurndownService } = load();
  const { document } = parseHTML(html);
  for (const node of document.querySelectorAll('script, style, noscript, template, iframe, object, embed')) node.remove();
  let article: { title?: string | null; content?: string | null } | null;
  try {
    // Readability mutates the document it is given; give it a copy.
    article = new Readability(parseHTML(document.toString()).document, { charThreshold: 200 }).parse();
  } catch {
    article = null;
  }
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript']);
  const title = (article?.title ?? document.querySelector('title')?.textContent ?? '').trim();
  const source = article?.content ? article.content : (document.querySelector('body')?.innerHTML ?? document.toString());
  const markdown = turndown
    .turndown(source)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { ...(title ? { title } : {}), markdown, extracted: Boolean(article?.content) };
}
