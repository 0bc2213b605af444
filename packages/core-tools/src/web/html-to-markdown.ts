import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

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
  const { document } = parseHTML(html);
  for (const node of document.querySelectorAll('script, style, noscript, template, iframe, object, embed')) node.remove();
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    // Readability mutates the document it is given; give it a copy.
    article = new Readability(parseHTML(document.toString()).document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 200 }).parse();
  } catch {
    article = null;
  }
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript']);
  const title = (article?.title ?? document.querySelector('title')?.textContent ?? '').trim();
  const source = article?.content ? article.content : (document.querySelector('body')?.innerHTML ?? document.toString());
  const markdown = turndown.turndown(source).replace(/\n{3,}/g, '\n\n').trim();
  return { ...(title ? { title } : {}), markdown, extracted: Boolean(article?.content) };
}
