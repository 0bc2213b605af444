const NEWLINE = 0x0a;

/**
 * The lines of a file's bytes by number, found on demand: only as many line ends are located as the
 * highest line asked for, and only the lines asked for are decoded (no split of the whole text).
 * A line's text excludes its `\n` and a `\r` before it, as both search engines report lines.
 */
export class LineIndex {
  /** Byte offset where each line starts; -1 once the end of the buffer is reached. */
  private readonly starts = [0];

  constructor(private readonly bytes: Buffer) {}

  /** Line `n` (1-based), or undefined past the last line. */
  line(n: number): string | undefined {
    if (n < 1) return undefined;
    while (this.starts.length <= n && this.starts[this.starts.length - 1] !== -1) {
      const newline = this.bytes.indexOf(NEWLINE, this.starts[this.starts.length - 1]);
      this.starts.push(newline === -1 ? -1 : newline + 1);
    }
    const start = this.starts[n - 1];
    if (start === undefined || start === -1) return undefined;
    const next = this.starts[n];
    const raw = this.bytes.toString('utf8', start, next === undefined || next === -1 ? this.bytes.length : next - 1);
    return raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  }

  /** Lines `from`..`to` (inclusive) that exist. */
  lines(from: number, to: number): string[] {
    const out: string[] = [];
    for (let n = Math.max(1, from); n <= to; n++) {
      const text = this.line(n);
      if (text === undefined) break;
      out.push(text);
    }
    return out;
  }
}
