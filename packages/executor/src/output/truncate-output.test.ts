import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { truncateOutput } from './truncate-output.js';

describe(truncateOutput, () => {
  it('leaves output within the cap untouched', () => {
    expect(truncateOutput('hello', 16)).toEqual({ text: 'hello', truncated: false, originalBytes: 5 });
  });

  it('keeps head and tail within the cap, with a note in the gap naming the characters cut', () => {
    const text = `HEAD${'x'.repeat(200_000)}TAIL`;
    const result = truncateOutput(text, 16 * 1024);
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(16 * 1024);
    expect(result.text.startsWith('HEAD')).toBe(true);
    expect(result.text.endsWith('TAIL')).toBe(true);
    const { fromChar, toChar } = result.omitted!;
    expect(result.text).toContain(
      `\n[… output cut: characters ${fromChar.toLocaleString('en-US')}–${toChar.toLocaleString('en-US')} of 200,008 omitted; ask for less at once (a narrower range, a filter) to see them …]\n`,
    );
    expect(result.originalBytes).toBe(200_008);
  });

  it('cuts on line boundaries and names the whole lines left out', () => {
    const text = Array.from({ length: 500 }, (_, i) => `row ${i + 1}`).join('\n');
    const result = truncateOutput(text, 1000, 'call_9');
    expect(result.omitted).toMatchObject({ wholeLines: true, totalLines: 500 });
    const { fromLine, toLine } = result.omitted!;
    expect(result.text).toContain(`row ${fromLine - 1}\n[… output cut: lines ${fromLine}–${toLine} of 500 omitted`);
    expect(result.text).toContain(`the host keeps the full output of call call_9 …]\nrow ${toLine + 1}\n`);
  });

  it('property: the head, the omitted range and the tail are exactly the original text, within the cap', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 0, maxLength: 3000 }), fc.integer({ min: 200, max: 2000 }), (text, cap) => {
        const result = truncateOutput(text, cap);
        if (!result.truncated) {
          expect(result.text).toBe(text);
          return;
        }
        expect(result.text.length).toBeLessThanOrEqual(cap);
        const { fromChar, toChar } = result.omitted!;
        const head = text.slice(0, fromChar - 1);
        const tail = text.slice(toChar);
        expect(result.text.startsWith(head)).toBe(true);
        expect(result.text.endsWith(tail)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('writes the note alone when the cap cannot hold more', () => {
    const result = truncateOutput('y'.repeat(500), 20);
    expect(result.text).toBe('[… output cut: characters 1–500 of 500 omitted; ask for less at once (a narrower range, a filter) to see them …]');
  });

  it('never splits a surrogate pair', () => {
    const text = '🙂é漢'.repeat(5_000);
    for (const cap of [200, 201, 202, 203, 1000, 4097]) {
      const result = truncateOutput(text, cap);
      expect(result.text.length).toBeLessThanOrEqual(cap);
      expect(result.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });
});
