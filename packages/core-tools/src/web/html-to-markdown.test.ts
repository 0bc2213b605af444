import { describe, expect, it } from 'vitest';
import { nestedDivs, HELD_AT_MOST_MS, withEventLoopLag } from '../test-support/event-loop-lag.js';
import { htmlToMarkdown } from './html-to-markdown.js';

const ARTICLE = `<html><head><title>Ocean facts</title></head><body><nav><a href="/">Home</a></nav>
<article><h1>The ocean</h1>${'<p>The ocean covers most of the planet and holds most of its water; it shapes the weather everywhere. </p>'.repeat(6)}
<ul><li>Pacific</li><li>Atlantic</li></ul></article></body></html>`;
// 1 MB that takes about 2 s to convert and 0.2 s to read as plain text, so a 0.1 s budget runs out
// whatever the machine's load (a small page can convert before a 1 ms timer fires).
const LONG_ARTICLE = `<html><head><title>Ocean facts</title></head><body><article><h1>The ocean</h1>${'<p>The ocean covers <b>most</b> of the planet.</p>'.repeat(20_000)}
<ul><li>Pacific</li><li>Atlantic</li></ul></article></body></html>`;

describe(htmlToMarkdown, () => {
  it('converts the article of a page to Markdown', async () => {
    const page = await htmlToMarkdown(ARTICLE);
    expect(page).toMatchObject({ title: 'Ocean facts', extracted: true });
    expect(page.markdown).toContain('-   Pacific');
    expect(page.markdown).not.toContain('Home');
    expect(page.simplified).toBeUndefined();
  });

  // Before the depth cap and the worker, 22 KB of nesting took 2 s and 330 KB overflowed the stack after minutes, holding the event loop throughout.
  it.for([50_000, 300_000, 1_000_000])('converts %i bytes of nested divs quickly, leaving the event loop free', async (bytes) => {
    const started = performance.now();
    const { value: page, maxLagMs } = await withEventLoopLag(() => htmlToMarkdown(nestedDivs(Math.floor(bytes / 11))));
    expect(page.markdown).toBe('x');
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(maxLagMs).toBeLessThan(HELD_AT_MOST_MS);
  });

  it('returns the plain text, saying why, when the conversion overruns its budget', async () => {
    const page = await htmlToMarkdown(LONG_ARTICLE, { budgetMs: 100 });
    expect(page).toMatchObject({ title: 'Ocean facts', extracted: false, simplified: 'converting it took longer than 0.1 s' });
    expect(page.markdown).toContain('Pacific\nAtlantic');
  });

  it('refuses the page, saying what to do, when reading it as plain text overruns too', async () => {
    await expect(htmlToMarkdown(LONG_ARTICLE, { budgetMs: 100, textBudgetMs: 1 })).rejects.toMatchObject({
      code: 'content_too_complex',
      message:
        'The page is too complex to read: converting it took longer than 0.1 s, and reading it as plain text took longer than 0 s. Fetch it with format: "raw" to get its HTML source, or try another page.',
    });
  });

  it('stops at once when the call is aborted', async () => {
    const reason = new Error('timed out');
    const controller = new AbortController();
    const converting = htmlToMarkdown(nestedDivs(50_000), { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 5);
    await expect(converting).rejects.toBe(reason);
    await expect(htmlToMarkdown(ARTICLE, { signal: AbortSignal.abort('gone') })).rejects.toMatchObject({
      code: 'cancelled',
      message: 'The fetch was cancelled.',
    });
  });
});
