/**
 * Keeps the head and the tail of a stream within a fixed budget while it streams: the first half of
 * the budget as it arrives, then a ring of the most recent bytes. Memory stays at `capBytes` however
 * much flows through; `totalBytes` counts everything.
 */
export class HeadTailBuffer {
  private readonly head: Buffer;
  private headLength = 0;
  private readonly tail: Buffer;
  private tailStart = 0;
  private tailLength = 0;
  totalBytes = 0;

  constructor(readonly capBytes: number) {
    const headCap = Math.ceil(capBytes / 2);
    this.head = Buffer.alloc(headCap);
    this.tail = Buffer.alloc(capBytes - headCap);
  }

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    let offset = 0;
    if (this.headLength < this.head.length) {
      const n = Math.min(chunk.length, this.head.length - this.headLength);
      chunk.copy(this.head, this.headLength, 0, n);
      this.headLength += n;
      offset = n;
    }
    if (offset >= chunk.length || this.tail.length === 0) return;
    let rest = chunk.subarray(offset);
    if (rest.length >= this.tail.length) {
      rest.copy(this.tail, 0, rest.length - this.tail.length);
      this.tailStart = 0;
      this.tailLength = this.tail.length;
      return;
    }
    const end = (this.tailStart + this.tailLength) % this.tail.length;
    const first = Math.min(rest.length, this.tail.length - end);
    rest.copy(this.tail, end, 0, first);
    rest = rest.subarray(first);
    if (rest.length > 0) rest.copy(this.tail, 0);
    const overflow = this.tailLength + first + rest.length - this.tail.length;
    if (overflow > 0) {
      this.tailStart = (this.tailStart + overflow) % this.tail.length;
      this.tailLength = this.tail.length;
    } else {
      this.tailLength += first + rest.length;
    }
  }

  get truncated(): boolean {
    return this.totalBytes > this.capBytes;
  }

  /** The text kept: all of it, or head + a marker with the bytes left out + tail (UTF-8 safe). */
  text(): string {
    const tail = Buffer.concat([
      this.tail.subarray(this.tailStart, Math.min(this.tail.length, this.tailStart + this.tailLength)),
      this.tail.subarray(0, Math.max(0, this.tailStart + this.tailLength - this.tail.length)),
    ]);
    if (!this.truncated) return Buffer.concat([this.head.subarray(0, this.headLength), tail]).toString('utf8');
    const head = trimIncompleteEnd(this.head.subarray(0, this.headLength));
    const tailText = trimIncompleteStart(tail);
    const omitted = this.totalBytes - head.length - tailText.length;
    return `${head.toString('utf8')}\n[... ${omitted} bytes of output omitted ...]\n${tailText.toString('utf8')}`;
  }
}

/** Drops a UTF-8 sequence cut at the end. */
function trimIncompleteEnd(buffer: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, buffer.length); back++) {
    const byte = buffer[buffer.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? buffer.subarray(0, buffer.length - back) : buffer;
  }
  return buffer;
}

/** Drops continuation bytes at the start (a sequence cut at the beginning). */
function trimIncompleteStart(buffer: Buffer): Buffer {
  let start = 0;
  while (start < Math.min(3, buffer.length) && (buffer[start]! & 0xc0) === 0x80) start++;
  return buffer.subarray(start);
}
