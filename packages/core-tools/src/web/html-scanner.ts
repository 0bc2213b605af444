import type { Tokenizer as TokenizerClass, TokenizerCallbacks } from 'htmlparser2';

/** `htmlScanner`'s functions: linear in the page whatever its nesting, synchronous (they run in the converting worker). */
export interface HtmlScanner {
  /**
   * The page rewritten so that no element is nested `maxDepth` deep or deeper: deeper tags are
   * dropped and their text kept in the deepest element kept. Scripts, styles, embedded content and
   * comments are removed, and every element is closed explicitly, so a parser reading the result
   * nests it as written. Readability and turndown recurse and rescan ancestors: past a few thousand
   * levels they take minutes or overflow the stack.
   * @example capNesting('<div><div><b>deep</b></div></div>', 1) === '<div>deep</div>'
   */
  capNesting(html: string, maxDepth: number): string;
  /**
   * The page's text, a line per block (paragraph, heading, item, table row), scripts and styles
   * left out, and its `<title>`: what web_fetch returns for a page too complex to convert to Markdown.
   * @example htmlToText('<title>T</title><p>one</p><p>two &amp; three</p>') // { title: 'T', text: 'one\n\ntwo & three' }
   */
  htmlToText(html: string): { title?: string; text: string };
}

/** What a scan reports, in document order. */
interface HtmlSink {
  /** A start tag: its lower-case name, its source (`<a href="x">`) and whether it lies within the depth cap. */
  open(name: string, source: string, kept: boolean): void;
  /** The end of an element opened before (explicit, implied by another tag, or at the end of the page). */
  close(name: string, kept: boolean): void;
  /** Text, entities decoded; never reported inside a removed element. */
  text(text: string): void;
}

/**
 * The HTML scanner, built on htmlparser2's tokenizer (a state machine: linear in the page). It
 * tracks the open elements as a browser would, ending those whose end tags are optional, ignoring
 * stray end tags and removing script, style and embedded elements with their content. Only the
 * tokenizer is used: htmlparser2's parser (linkedom's) keeps its open elements in an array it
 * shifts, quadratic in the depth (100,000 nested `<div>`s take minutes).
 *
 * The converting worker evaluates this function from its source text (`htmlScanner.toString()`),
 * so its body must use nothing from outside it but its parameter.
 */
export function htmlScanner(Tokenizer: typeof TokenizerClass): HtmlScanner {
  /** Elements removed with everything in them: code, embedded content, and markup that is not text. */
  const REMOVED = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'math']);
  /** Elements without content or end tag (each void for htmlparser2 too, so the rewritten page nests alike). */
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
  const PARAGRAPH = ['p'];
  /**
   * Start tags that end the innermost open element while it is one of these (HTML's optional end
   * tags: `<li>a<li>b` is two items, not one inside the other), so unclosed paragraphs and items do
   * not count as nesting. Each rule is one htmlparser2 applies too.
   */
  const ENDS = new Map<string, ReadonlySet<string>>(
    Object.entries({
      li: ['li'],
      dt: ['dt', 'dd'],
      dd: ['dt', 'dd'],
      option: ['option'],
      optgroup: ['optgroup', 'option'],
      tr: ['tr', 'th', 'td'],
      th: ['th'],
      td: ['thead', 'th', 'td'],
      tbody: ['thead', 'tbody'],
      tfoot: ['thead', 'tbody'],
      ...Object.fromEntries(
        'p h1 h2 h3 h4 h5 h6 address article aside blockquote details div dl fieldset figcaption figure footer form header hr main nav ol pre section table ul'
          .split(' ')
          .map((tag) => [tag, PARAGRAPH]),
      ),
    }).map(([tag, ended]) => [tag, new Set(ended)]),
  );
  /** Elements that start a line of their own in the text. */
  const BLOCK = new Set(
    'address article aside br dd details dialog div dl dt fieldset figcaption footer form header hr li main nav section summary td th tr'.split(' '),
  );
  /** Blocks set apart by a blank line. */
  const SEPARATE = new Set('blockquote figure h1 h2 h3 h4 h5 h6 ol p pre table ul'.split(' '));

  class Scanner implements TokenizerCallbacks {
    /** The open elements, innermost last, and whether each is kept (within the depth cap). */
    private readonly names: string[] = [];
    private readonly kept: boolean[] = [];
    /** How many of each name are open: an end tag with none open is ignored at once, not searched for. */
    private readonly openCount = new Map<string, number>();
    /** Open `REMOVED` elements: while any is, nothing is reported. */
    private removing = 0;
    private tagName = '';
    private tagStart = 0;

    constructor(
      private readonly html: string,
      private readonly sink: HtmlSink,
      private readonly maxDepth: number,
    ) {}

    closeAll(): void {
      while (this.names.length > 0) this.pop();
    }

    private push(name: string, source: string): void {
      const kept = this.names.length < this.maxDepth;
      if (REMOVED.has(name)) this.removing++;
      else if (this.removing === 0) this.sink.open(name, source, kept);
      this.names.push(name);
      this.kept.push(kept);
      this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1);
    }

    private pop(): void {
      const name = this.names.pop()!;
      const kept = this.kept.pop()!;
      this.openCount.set(name, this.openCount.get(name)! - 1);
      if (REMOVED.has(name)) this.removing--;
      else if (this.removing === 0) this.sink.close(name, kept);
    }

    ontext(start: number, end: number): void {
      if (this.removing === 0) this.sink.text(this.html.slice(start, end));
    }

    ontextentity(codepoint: number): void {
      if (this.removing === 0) this.sink.text(String.fromCodePoint(codepoint));
    }

    onopentagname(start: number, end: number): void {
      this.tagStart = start - 1;
      this.tagName = this.html.slice(start, end).toLowerCase();
    }

    onopentagend(end: number): void {
      const name = this.tagName;
      const ended = ENDS.get(name);
      if (ended) while (this.names.length > 0 && ended.has(this.names[this.names.length - 1]!)) this.pop();
      const source = this.html.slice(this.tagStart, end + 1);
      if (!VOID.has(name)) this.push(name, source);
      else if (this.removing === 0 && !REMOVED.has(name)) this.sink.open(name, source, true);
    }

    // In HTML `<div/>` is a start tag like `<div>` (only foreign content such as SVG, removed here, closes itself).
    onselfclosingtag(end: number): void {
      this.onopentagend(end);
    }

    onclosetag(start: number, end: number): void {
      const name = this.html.slice(start, end).toLowerCase();
      // Each search ends by popping every element it passed, so all searches together cost no more than the pushes.
      if ((this.openCount.get(name) ?? 0) === 0) return;
      while (this.names[this.names.length - 1] !== name) this.pop();
      this.pop();
    }

    onattribdata(): void {}
    onattribentity(): void {}
    onattribend(): void {}
    onattribname(): void {}
    oncdata(): void {}
    oncomment(): void {}
    ondeclaration(): void {}
    onend(): void {}
    onprocessinginstruction(): void {}
  }

  function scan(html: string, sink: HtmlSink, maxDepth: number): void {
    const scanner = new Scanner(html, sink, maxDepth);
    const tokenizer = new Tokenizer({ decodeEntities: true }, scanner);
    tokenizer.write(html);
    tokenizer.end();
    scanner.closeAll();
  }

  const escapeText = (text: string) => text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

  function capNesting(html: string, maxDepth: number): string {
    const parts: string[] = [];
    scan(
      html,
      {
        open: (_name, source, kept) => {
          if (kept) parts.push(source);
        },
        close: (name, kept) => {
          if (kept) parts.push(`</${name}>`);
        },
        text: (text) => parts.push(escapeText(text)),
      },
      maxDepth,
    );
    return parts.join('');
  }

  function htmlToText(html: string): { title?: string; text: string } {
    const parts: string[] = [];
    let title: string | undefined;
    let inTitle = false;
    let inPre = 0;
    /** Line breaks owed before the next text: 1 after a block, 2 after a separate block. */
    let breaks = 0;
    const block = (name: string) => {
      if (SEPARATE.has(name)) breaks = 2;
      else if (BLOCK.has(name)) breaks = Math.max(breaks, 1);
    };
    scan(
      html,
      {
        open: (name) => {
          if (name === 'title') inTitle = title === undefined;
          if (name === 'pre') inPre++;
          block(name);
        },
        close: (name) => {
          if (name === 'title') inTitle = false;
          if (name === 'pre') inPre--;
          block(name);
        },
        text: (raw) => {
          if (inTitle) {
            title = (title ?? '') + raw;
            return;
          }
          const text = inPre > 0 ? raw : raw.replace(/\s+/g, ' ');
          if (breaks > 0 && text.trim() === '') return;
          if (breaks > 0 && parts.length > 0) parts.push('\n'.repeat(breaks));
          breaks = 0;
          parts.push(text);
        },
      },
      // Every element is read: the depth only bounds what is reported as kept, unused here.
      Infinity,
    );
    const text = parts
      .join('')
      .split('\n')
      .map((line) => line.trim())
      .join('\n')
      .trim();
    const trimmedTitle = title?.replace(/\s+/g, ' ').trim();
    return { ...(trimmedTitle ? { title: trimmedTitle } : {}), text };
  }

  return { capNesting, htmlToText };
}
