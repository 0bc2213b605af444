import { CoreToolError } from '../core-tool-error.js';
import { abortError } from '../workers/abort-error.js';
import { runWorkerJob, type WorkerJobOutcome, type WorkerProgram } from '../workers/run-worker-job.js';
import { htmlScanner } from './html-scanner.js';

export interface ConvertedPage {
  title?: string;
  markdown: string;
  /** Whether readability found an article (else the whole body was converted). */
  extracted: boolean;
  /** Set when the page was too complex to convert to Markdown: why. `markdown` is then its plain text. */
  simplified?: string;
}

export interface ConvertOptions {
  /** The call's signal: aborting it stops the conversion and rejects with its reason. */
  signal?: AbortSignal | undefined;
  /** Time the conversion to Markdown may take before the page is read as plain text (default `CONVERT_BUDGET_MS`). */
  budgetMs?: number;
  /** Time reading the page as plain text may take after that (default `TEXT_BUDGET_MS`). */
  textBudgetMs?: number;
}

/**
 * Time the conversion of one page to Markdown may take. A 2 MiB article converts in about 2 s on a
 * busy machine (most pages in well under 1 s); hostile markup can take minutes. web_fetch's 45 s
 * call limit holds the 30 s fetch, this, and the plain-text fallback.
 */
export const CONVERT_BUDGET_MS = 10_000;
/** Time reading a page as plain text may take: linear, about 0.2 s for 2 MiB. */
export const TEXT_BUDGET_MS = 4_000;
/** Deepest element nesting converted (`capNesting`): real pages stay under 60 levels; deeper markup keeps its text only. */
export const MAX_NESTING = 128;
/** Pages with more elements are converted whole, without readability's article extraction (its cost grows with size times depth). */
const READABILITY_MAX_ELEMENTS = 50_000;
/** The converting worker's heap cap: a 2 MiB page of tiny elements needs about 550 MiB; past the cap the page comes back as plain text. */
const CONVERTER_HEAP_MB = 512;

// The scanner is built from its own source text; the DOM, readability and turndown load on the
// first Markdown job (about 0.4 s), and one worker is kept warm between fetches.
const CONVERTER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const scanner = (${htmlScanner.toString()})(require(workerData.htmlparser2).Tokenizer);
let libraries;
function markdown(html, maxDepth, maxElements) {
  libraries ??= {
    Readability: require(workerData.readability).Readability,
    parseHTML: require(workerData.linkedom).parseHTML,
    TurndownService: require(workerData.turndown),
  };
  const { Readability, parseHTML, TurndownService } = libraries;
  const capped = scanner.capNesting(html, maxDepth);
  let article = null;
  try {
    // Readability mutates the document it is given; the page is parsed again below if needed.
    article = new Readability(parseHTML(capped).document, { charThreshold: 200, maxElemsToParse: maxElements }).parse();
  } catch {
    article = null;
  }
  let document;
  const parsed = () => (document ??= parseHTML(capped).document);
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  const title = ((article && article.title) || (parsed().querySelector('title') || {}).textContent || '').trim();
  const source = article && article.content ? article.content : (parsed().querySelector('body') || {}).innerHTML || parsed().toString();
  const text = turndown.turndown(source).replace(/\n{3,}/g, '\n\n').trim();
  return { ...(title ? { title } : {}), markdown: text, extracted: Boolean(article && article.content) };
}
parentPort.on('message', (job) => {
  try {
    const page = job.mode === 'text' ? scanner.htmlToText(job.html) : markdown(job.html, job.maxDepth, job.maxElements);
    parentPort.postMessage({ page });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});
`;

let converter: WorkerProgram | undefined;
function converterProgram(): WorkerProgram {
  // The worker evaluates text, so it loads each library by the path resolved here.
  converter ??= {
    source: CONVERTER_SOURCE,
    workerData: {
      htmlparser2: require.resolve('htmlparser2'),
      readability: require.resolve('@mozilla/readability'),
      linkedom: require.resolve('linkedom'),
      turndown: require.resolve('turndown'),
    },
    maxHeapMb: CONVERTER_HEAP_MB,
  };
  return converter;
}

type Reply<T> = WorkerJobOutcome<{ page?: T; error?: string }>;

/**
 * HTML to Markdown, in a worker thread: the page is flattened past `MAX_NESTING` levels
 * (`capNesting`), readability extracts the article (dropping navigation, ads and scripts) and
 * turndown converts it; pages readability cannot handle are converted whole. A page that overruns
 * the time budget or the worker's heap cap is read as plain text instead (`htmlToText`, linear),
 * with `simplified` saying why; one that defeats even that is refused (`content_too_complex`).
 * This thread only posts the page and waits, so it keeps serving other work meanwhile.
 */
export async function htmlToMarkdown(html: string, options: ConvertOptions = {}): Promise<ConvertedPage> {
  const { signal } = options;
  const budgetMs = options.budgetMs ?? CONVERT_BUDGET_MS;
  const textBudgetMs = options.textBudgetMs ?? TEXT_BUDGET_MS;
  const program = converterProgram();
  const job = { mode: 'markdown', html, maxDepth: MAX_NESTING, maxElements: READABILITY_MAX_ELEMENTS };
  const converted: Reply<ConvertedPage> = await runWorkerJob(program, job, { budgetMs, signal });
  if (converted.ok && converted.reply.page) return converted.reply.page;
  const why = failure(converted, 'converting it', budgetMs);
  const read: Reply<{ title?: string; text: string }> = await runWorkerJob(program, { mode: 'text', html }, { budgetMs: textBudgetMs, signal });
  if (read.ok && read.reply.page) {
    const { title, text } = read.reply.page;
    return { ...(title ? { title } : {}), markdown: text, extracted: false, simplified: why };
  }
  const readWhy = failure(read, 'reading it as plain text', textBudgetMs);
  throw new CoreToolError(
    'content_too_complex',
    `The page is too complex to read: ${why}, and ${readWhy}. Fetch it with format: "raw" to get its HTML source, or try another page.`,
  );
}

/** Why a job gave no page (rethrowing the abort reason when the call was cancelled). */
function failure(outcome: Reply<unknown>, what: string, budgetMs: number): string {
  if (outcome.ok) return `${what} failed (${outcome.reply.error})`;
  switch (outcome.stop) {
    case 'aborted':
      throw abortError(outcome.reason, 'The fetch was cancelled.');
    case 'budget':
      return `${what} took longer than ${Math.round(budgetMs / 100) / 10} s`;
    case 'crashed':
      return `${what} stopped (${outcome.detail})`;
  }
}
