/**
 * The program's stdout, kept whole up to `capBytes` (its result must be read entire, not a head and a tail), and
 * past it no more: `exceeded` says so, and the caller stops the program. Chunks are kept as they come, so a small
 * result costs no buffer the size of the cap.
 */
export class StdoutCollector {
  private readonly chunks: Buffer[] = [];
  private total = 0;
  exceeded = false;

  constructor(readonly capBytes: number) {}

  /** Keeps `chunk`; false once the output has passed the cap (then nothing more is kept). */
  push(chunk: Buffer): boolean {
    if (this.exceeded) return false;
    this.total += chunk.length;
    if (this.total > this.capBytes) {
      this.exceeded = true;
      this.chunks.length = 0;
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  text(): string {
    return Buffer.concat(this.chunks, this.total).toString('utf8');
  }
}
