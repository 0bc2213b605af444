/** A region of a file to replace: character offsets into the original text. */
export interface Match {
  start: number;
  end: number;
}

/** Every exact occurrence of `needle`, left to right, not overlapping. */
export function exactMatches(text: string, needle: string): Match[] {
  const matches: Match[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    matches.push({ start: at, end: at + needle.length });
  }
  return matches;
}

const normaliseLine = (line: string) => line.replace(/\s+/g, ' ').trim();

/**
 * Occurrences of `needle` when whitespace is forgiven: line endings, indentation, runs of spaces and
 * trailing blanks may differ, line structure may not. Used only when the exact match found nothing.
 */
export function tolerantMatches(text: string, needle: string): Match[] {
  const wanted = needle.replace(/\r\n/g, '\n').split('\n').map(normaliseLine);
  while (wanted.length > 0 && wanted[0] === '') wanted.shift();
  while (wanted.length > 0 && wanted[wanted.length - 1] === '') wanted.pop();
  if (wanted.length === 0) return [];
  const lines = lineSpans(text);
  const matches: Match[] = [];
  for (let i = 0; i + wanted.length <= lines.length; i++) {
    let same = true;
    for (let k = 0; k < wanted.length && same; k++) same = normaliseLine(text.slice(lines[i + k]!.start, lines[i + k]!.end)) === wanted[k];
    if (same) {
      matches.push({ start: lines[i]!.start, end: lines[i + wanted.length - 1]!.end });
      i += wanted.length - 1;
    }
  }
  return matches;
}

/** Start and end offsets of each line (without its line break). */
export function lineSpans(text: string): Match[] {
  const spans: Match[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text[i] === '\n') {
      const end = i > start && text[i - 1] === '\r' ? i - 1 : i;
      spans.push({ start, end });
      start = i + 1;
    }
  }
  return spans;
}

/** 1-based line number of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The window of the file most like `needle` (line by line, by shared normalised lines and then by
 * common words), shown with line numbers so the model can copy the real text on its next attempt.
 */
export function closestRegion(text: string, needle: string, context = 2): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const wanted = needle.replace(/\r\n/g, '\n').split('\n').map(normaliseLine).filter(Boolean);
  if (lines.length === 0 || wanted.length === 0) return '';
  const words = new Set(wanted.join(' ').split(/\W+/).filter((w) => w.length > 2));
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < lines.length; i++) {
    let score = 0;
    for (let k = 0; k < wanted.length && i + k < lines.length; k++) {
      const line = normaliseLine(lines[i + k]!);
      if (line === wanted[k]) score += 10;
      else for (const word of line.split(/\W+/)) if (words.has(word)) score += 1;
    }
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (bestScore <= 0) return '';
  const from = Math.max(0, best - context);
  const to = Math.min(lines.length, best + wanted.length + context);
  return lines.slice(from, to).map((line, i) => `${String(from + i + 1).padStart(5)}\t${line}`).join('\n');
}
