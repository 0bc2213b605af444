import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestRegion, exactMatches, tolerantMatches, type Match } from './edit-matching.js';

const normalise = (line: string) => line.replace(/\s+/g, ' ').trim();

/** The definition, scanned naively (quadratic): what the linear implementations must agree with. */
function naiveTolerant(text: string, needle: string): Match[] {
  const wanted = needle.replace(/\r\n/g, '\n').split('\n').map(normalise);
  while (wanted[0] === '') wanted.shift();
  while (wanted.length > 0 && wanted[wanted.length - 1] === '') wanted.pop();
  if (wanted.length === 0) return [];
  const spans: Match[] = [];
  let start = 0;
  for (const raw of text.split('\n')) {
    spans.push({ start, end: start + (raw.endsWith('\r') ? raw.length - 1 : raw.length) });
    start += raw.length + 1;
  }
  const matches: Match[] = [];
  for (let i = 0; i + wanted.length <= spans.length; i++) {
    if (wanted.every((line, k) => normalise(text.slice(spans[i + k]!.start, spans[i + k]!.end)) === line)) {
      matches.push({ start: spans[i]!.start, end: spans[i + wanted.length - 1]!.end });
      i += wanted.length - 1;
    }
  }
  return matches;
}

function naiveClosest(text: string, needle: string, context = 2): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const wanted = needle.replace(/\r\n/g, '\n').split('\n').map(normalise).filter(Boolean);
  if (wanted.length === 0) return '';
  const words = new Set(
    wanted
      .join(' ')
      .split(/\W+/)
      .filter((w) => w.length > 2),
  );
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < lines.length; i++) {
    let score = 0;
    for (let k = 0; k < wanted.length && i + k < lines.length; k++) {
      const line = normalise(lines[i + k]!);
      if (line === wanted[k]) score += 10;
      else for (const word of line.split(/\W+/)) if (words.has(word)) score += 1;
    }
    if (score > bestScore) [bestScore, best] = [score, i];
  }
  if (bestScore <= 0) return '';
  const from = Math.max(0, best - context);
  return lines
    .slice(from, Math.min(lines.length, best + wanted.length + context))
    .map((line, i) => `${String(from + i + 1).padStart(5)}\t${line}`)
    .join('\n');
}

/** Few distinct lines, so needles recur and overlap in the text (the cases KMP must get right). */
const lines = fc.array(fc.constantFrom('a', ' a', 'a  ', 'b', 'ab', 'foo bar', ' foo  bar', '', '\t', 'a\r', 'bar baz'), { maxLength: 14 });

describe(exactMatches, () => {
  it('finds what an indexOf scan finds, also when it runs Knuth–Morris–Pratt (property)', () => {
    // No `u` flag, on purpose: the class holds the two halves of 😀 separately, so the text also has lone surrogates.
    // eslint-disable-next-line no-misleading-character-class -- the halves are wanted one by one (see above)
    const text = fc.stringMatching(/^[ab\u00e9\ud83d\ude00]{0,40}$/);
    fc.assert(
      fc.property(text, text, (haystack, needle) => {
        const expected = exactMatches(haystack, needle);
        expect(exactMatches(haystack, needle, 0)).toEqual(expected);
        if (needle === '') expect(expected).toEqual([]);
        else expect(expected.map((m) => haystack.slice(m.start, m.end))).toEqual(expected.map(() => needle));
      }),
      { numRuns: 5_000 },
    );
  });

  it('searches 16 MiB of repeated text for a long needle in linear time', () => {
    const text = 'a'.repeat(16 * 1024 * 1024);
    expect(exactMatches(text, `${'a'.repeat(20_000)}b${'a'.repeat(20_000)}`)).toEqual([]);
    expect(exactMatches(`${text}b`, `${'a'.repeat(20_000)}b`)).toEqual([{ start: text.length - 20_000, end: text.length + 1 }]);
  });
});

describe(tolerantMatches, () => {
  it('finds the leftmost non-overlapping whitespace-forgiving matches, as a naive scan does (property)', () => {
    fc.assert(
      fc.property(lines, lines, (text, needle) => {
        expect(tolerantMatches(text.join('\n'), needle.join('\n'))).toEqual(naiveTolerant(text.join('\n'), needle.join('\n')));
      }),
      { numRuns: 3_000 },
    );
  });

  it('matches a 3,000-line needle against a million repeated lines in linear work', () => {
    const text = `${'a\n'.repeat(1_000_000)}b`;
    expect(tolerantMatches(text, `${' a\n'.repeat(3000)}b`)).toEqual([{ start: 2 * 997_000, end: text.length }]);
    expect(tolerantMatches(text, `${' a\n'.repeat(3000)}c`)).toEqual([]);
  });
});

describe(closestRegion, () => {
  it('picks the window a naive line-by-line score picks (property)', () => {
    fc.assert(
      fc.property(lines, lines, (text, needle) => {
        const expected = naiveClosest(text.join('\n'), needle.join('\n'));
        expect(closestRegion(text.join('\n'), needle.join('\n'))).toEqual(expected ? { kind: 'found', region: expected } : { kind: 'none' });
      }),
      { numRuns: 3_000 },
    );
  });

  it('gives up when the needle lines repeat too often in the file, and finds what it can afford', () => {
    const text = 'a\n'.repeat(1_000_000);
    expect(closestRegion(text, `${' a\n'.repeat(3000)}b`)).toEqual({ kind: 'too_costly' });
    expect(closestRegion('x\nfoo bar\ny', 'foo baz', 0, 10)).toEqual({ kind: 'found', region: '    2\tfoo bar' });
    expect(closestRegion('x\na\ny\na', 'a\na', 0, 3)).toEqual({ kind: 'too_costly' });
  });
});
