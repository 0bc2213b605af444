/** A region of a file to replace: character offsets into the original text. */
export interface Match {
  start: number;
  end: number;
}

/** Largest text length × needle length searched with `indexOf`, whose worst case is their product. */
export const INDEXOF_BUDGET = 50_000_000;

/**
 * Every exact occurrence of `needle`, left to right, not overlapping. Small searches use `indexOf`;
 * larger ones Knuth–Morris–Pratt over UTF-16 code units, linear whatever the text, where `indexOf`
 * is not (`a…ab…a` against megabytes of `a` takes V8 seconds per megabyte).
 */
export function exactMatches(text: string, needle: string, indexOfBudget = INDEXOF_BUDGET): Match[] {
  const m = needle.length;
  const matches: Match[] = [];
  if (m === 0) return matches;
  if (text.length * m <= indexOfBudget) {
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + m)) matches.push({ start: at, end: at + m });
    return matches;
  }
  const codes = new Uint16Array(m);
  for (let i = 0; i < m; i++) codes[i] = needle.charCodeAt(i);
  const fallback = failureTable(codes);
  for (let i = 0, matched = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    while (matched > 0 && codes[matched] !== c) matched = fallback[matched - 1]!;
    if (codes[matched] === c && ++matched === m) {
      matches.push({ start: i - m + 1, end: i + 1 });
      matched = 0;
    }
  }
  return matches;
}

const normaliseLine = (line: string) => line.replace(/\s+/g, ' ').trim();

/** The normalised lines of `needle` to look for, without blank lines at either end. */
function wantedLines(needle: string): string[] {
  const wanted = needle.replace(/\r\n/g, '\n').split('\n').map(normaliseLine);
  while (wanted.length > 0 && wanted[0] === '') wanted.shift();
  while (wanted.length > 0 && wanted[wanted.length - 1] === '') wanted.pop();
  return wanted;
}

/**
 * Occurrences of `needle` when whitespace is forgiven: line endings, indentation, runs of spaces and
 * trailing blanks may differ, line structure may not. Used only when the exact match found nothing.
 * Leftmost, not overlapping. Each line of the file is normalised once and the lines are matched
 * with Knuth–Morris–Pratt, so the work is linear in the file and the needle whatever they hold
 * (a naive scan of a 3,000-line needle over a million repeated lines compares billions of lines).
 */
export function tolerantMatches(text: string, needle: string): Match[] {
  const wanted = wantedLines(needle);
  const m = wanted.length;
  if (m === 0) return [];
  const ids = new Map<string, number>();
  const pattern = wanted.map((line) => ids.get(line) ?? (ids.set(line, ids.size), ids.size - 1));
  const fallback = failureTable(pattern);
  const starts = new Array<number>(m); // ring buffer: where the last m lines start
  const matches: Match[] = [];
  let matched = 0;
  let index = 0;
  forEachLine(text, (start, end) => {
    const id = ids.get(normaliseLine(text.slice(start, end))) ?? -1;
    starts[index % m] = start;
    while (matched > 0 && pattern[matched] !== id) matched = fallback[matched - 1]!;
    if (pattern[matched] === id) matched++;
    if (matched === m) {
      matches.push({ start: starts[(index - m + 1) % m]!, end });
      matched = 0;
    }
    index++;
  });
  return matches;
}

/** KMP: for each prefix of `pattern`, the length of its longest proper prefix that is also its suffix. */
function failureTable(pattern: ArrayLike<number>): Int32Array {
  const table = new Int32Array(pattern.length);
  for (let i = 1, k = 0; i < pattern.length; i++) {
    while (k > 0 && pattern[i] !== pattern[k]) k = table[k - 1]!;
    if (pattern[i] === pattern[k]) k++;
    table[i] = k;
  }
  return table;
}

/** Calls `visit` with the start and end (without `\r\n` or `\n`) of each line, in order. */
function forEachLine(text: string, visit: (start: number, end: number) => void): void {
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const stop = newline === -1 ? text.length : newline;
    visit(start, stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop);
    if (newline === -1) return;
    start = newline + 1;
  }
}

/** 1-based line number of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Most (file line, needle line) pairs of equal text `closestRegion` weighs before it gives up. */
export const CLOSEST_REGION_BUDGET = 20_000_000;

/** What `closestRegion` found: a numbered excerpt, nothing alike, or a file too repetitive to weigh. */
export type ClosestRegion = { kind: 'found'; region: string } | { kind: 'none' } | { kind: 'too_costly' };

/**
 * The window of the file most like `needle` (line by line: 10 points for a line equal to the needle's
 * line at that offset once normalised, else a point per word it shares with the needle), shown with
 * line numbers so the model can copy the real text on its next attempt. Word points are summed over
 * windows with prefix sums; equal lines are credited to the window they align in, which costs one
 * step per (file line, equal needle line) pair, at most `budget` of them: a file of a million
 * identical lines against a needle of thousands of them answers `too_costly`.
 */
export function closestRegion(text: string, needle: string, context = 2, budget = CLOSEST_REGION_BUDGET): ClosestRegion {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const wanted = needle.replace(/\r\n/g, '\n').split('\n').map(normaliseLine).filter(Boolean);
  const n = lines.length;
  const m = wanted.length;
  if (n === 0 || m === 0) return { kind: 'none' };
  const words = new Set(
    wanted
      .join(' ')
      .split(/\W+/)
      .filter((w) => w.length > 2),
  );
  const offsets = new Map<string, number[]>();
  wanted.forEach((line, k) => (offsets.get(line) ?? offsets.set(line, []).get(line)!).push(k));
  const wordSums = new Float64Array(n + 1); // wordSums[j]: word points of lines 0..j-1
  const equalBonus = new Float64Array(n); // per window start: what equal lines add over their word points
  let work = 0;
  for (let j = 0; j < n; j++) {
    const line = normaliseLine(lines[j]!);
    let points = 0;
    for (const word of line.split(/\W+/)) if (words.has(word)) points++;
    wordSums[j + 1] = wordSums[j]! + points;
    for (const k of offsets.get(line) ?? []) {
      if (++work > budget) return { kind: 'too_costly' };
      if (j - k >= 0) equalBonus[j - k]! += 10 - points;
    }
  }
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < n; i++) {
    const score = wordSums[Math.min(n, i + m)]! - wordSums[i]! + equalBonus[i]!;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (bestScore <= 0) return { kind: 'none' };
  const from = Math.max(0, best - context);
  const to = Math.min(n, best + m + context);
  return {
    kind: 'found',
    region: lines
      .slice(from, to)
      .map((line, i) => `${String(from + i + 1).padStart(5)}\t${line}`)
      .join('\n'),
  };
}
