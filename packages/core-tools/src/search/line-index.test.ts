import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from './line-index.js';

describe(LineIndex, () => {
  it('finds the same lines as splitting the whole text (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'é', '🙂', '\n', '\r\n', ''), { maxLength: 30 }), fc.integer({ min: 0, max: 12 }), (parts, n) => {
        const text = parts.join('');
        const split = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
        expect(new LineIndex(Buffer.from(text)).line(n)).toBe(n >= 1 ? split[n - 1] : undefined);
      }),
      { numRuns: 1_000 },
    );
  });

  it('returns the existing lines of a range', () => {
    const index = new LineIndex(Buffer.from('one\r\ntwo\nthree'));
    expect(index.lines(0, 2)).toEqual(['one', 'two']);
    expect(index.lines(3, 9)).toEqual(['three']);
  });
});
