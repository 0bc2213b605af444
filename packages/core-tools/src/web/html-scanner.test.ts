import fc from 'fast-check';
import { Tokenizer } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { nestedDivs } from '../test-support/event-loop-lag.js';
import { htmlScanner } from './html-scanner.js';
import { stopwatch } from '../../../../tools/vitest/ready-wait.mts';

interface Node {
  readonly firstElementChild: Node | null;
  readonly nextElementSibling: Node | null;
  readonly textContent: string | null;
}
const parse = (html: string) => (parseHTML as unknown as (html: string) => { document: { documentElement: Node } })(html).document;

/** The deepest element nesting in a document, counted without recursion. */
function depthOf(root: Node): number {
  let deepest = 0;
  const stack: [Node, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (let child = node.firstElementChild; child; child = child.nextElementSibling) stack.push([child, depth + 1]);
  }
  return deepest;
}

const { capNesting, htmlToText } = htmlScanner(Tokenizer);

describe('capNesting', () => {
  it.for([
    ['drops tags past the depth and keeps their text', '<div><div><b>deep</b> text</div></div>', 1, '<div>deep text</div>'],
    ['removes scripts, styles, embedded content and comments', '<p>a<script>x<y</script><style>p{}</style><!-- c --><svg><g/></svg>b</p>', 9, '<p>ab</p>'],
    ['closes what the page left open', '<ul><li>one<li>two</ul><p>end', 9, '<ul><li>one</li><li>two</li></ul><p>end</p>'],
    ['ignores end tags with nothing open to end', '</div></span>text</p>', 9, 'text'],
    [
      'keeps void elements and attributes as written',
      '<p><a href="/x?a=1&amp;b=2" title=\'>\'>link</a><br><img src=i.png></p>',
      9,
      '<p><a href="/x?a=1&amp;b=2" title=\'>\'>link</a><br><img src=i.png></p>',
    ],
    ['escapes text so that it cannot form tags once others are dropped', '<<div>div>&lt;b&gt; &amp;', 0, '&lt;div&gt;&lt;b&gt; &amp;'],
  ] as const)('%s', ([, html, maxDepth, expected]) => {
    expect(capNesting(html, maxDepth)).toBe(expected);
  });

  it('does not count unclosed paragraphs, items and cells as nesting', () => {
    const html = `<table>${'<tr><td>cell'.repeat(300)}</table><ul>${'<li>item'.repeat(300)}</ul>${'<p>para'.repeat(300)}`;
    expect(depthOf(parse(capNesting(html, 8)).documentElement)).toBeLessThanOrEqual(8);
    expect(capNesting(html, 8).match(/<li>/g)).toHaveLength(300);
  });

  it.for([1_000, 100_000])('flattens %i nested divs to the depth, in linear time', (levels) => {
    const elapsed = stopwatch();
    const capped = capNesting(nestedDivs(levels), 128);
    expect(elapsed()).toBeLessThan(5_000);
    expect(depthOf(parse(capped).documentElement)).toBeLessThanOrEqual(128 + 1);
    expect(capped).toContain('x');
  });

  it('keeps the text and bounds the depth of any tag soup (property)', () => {
    const token = fc.oneof(
      fc.constantFrom(
        '<div>',
        '</div>',
        '<p>',
        '</p>',
        '<li>',
        '<ul>',
        '</ul>',
        '<b>',
        '</b>',
        '<br>',
        '<table>',
        '<tr>',
        '<td>',
        '</table>',
        '<div/>',
        '</x>',
      ),
      fc.stringMatching(/^[a-z ]{1,4}$/),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), fc.integer({ min: 1, max: 6 }), (tokens, maxDepth) => {
        const html = tokens.join('');
        const body = parse(`<html><body>${capNesting(html, maxDepth)}</body></html>`).documentElement.firstElementChild!;
        // A void element (`<br>`) inside the deepest element kept adds a level with nothing below it.
        expect(depthOf(body) - 1).toBeLessThanOrEqual(maxDepth + 1);
        const words = (text: string | null) => (text ?? '').replace(/\s+/g, '');
        expect(words(body.textContent)).toBe(words(parse(`<html><body>${html}</body></html>`).documentElement.textContent));
      }),
      { numRuns: 300 },
    );
  });
});

describe('htmlToText', () => {
  it('gives a line per block, entities decoded, scripts and styles left out, and the title', () => {
    const html = `<html><head><title> Ocean &amp; sea </title><style>p { color: red }</style></head><body>
      <h1>The   ocean</h1><p>It covers <b>most</b> of the planet.<script>alert(1)</script></p>
      <ul><li>Pacific<li>Atlantic</ul><pre>a  b\nc</pre></body></html>`;
    expect(htmlToText(html)).toEqual({ title: 'Ocean & sea', text: 'The ocean\n\nIt covers most of the planet.\n\nPacific\nAtlantic\n\na  b\nc' });
  });

  it('reads a page nested 200,000 levels deep in linear time', () => {
    const elapsed = stopwatch();
    expect(htmlToText(nestedDivs(200_000))).toEqual({ text: 'x' });
    expect(elapsed()).toBeLessThan(10_000);
  });
});
