import fs from 'node:fs';
import { WorkspaceError } from '../workspace/workspace-error.js';
import { contentHasher } from '../workspace/content-hash.js';
import { modelSize } from '../model-text/output-budget.js';
import { CoreToolError } from '../core-tool-error.js';

/** A page of numbered lines, read from an open file without loading the whole of it. */
export interface LinePage {
  /** `<n>\t<line>` for each line returned. */
  lines: string[];
  /** Number of the first line returned (or where it would be, past the end). */
  first: number;
  /** Whether lines after the last one returned remain. */
  more: boolean;
  /** Set when the whole file was read: its line count and its sha-256. */
  totalLines?: number;
  hash?: string;
}

export interface LinePageOptions {
  offset: number;
  limit: number;
  /** Most numbered text to return, as `modelSize` counts it; a single longer line is cut. */
  maxBytes: number;
  /** Files up to this size are read to the end, for their line count and hash; larger ones only as far as needed. */
  wholeFileBytes: number;
  /** The path shown in errors. */
  shown: string;
  signal?: AbortSignal;
  /** Bytes read at a time (default 256 KiB). */
  chunkBytes?: number;
}

const CHUNK_BYTES = 256 * 1024;
const BINARY_SNIFF_BYTES = 8192;
const NEWLINE = 0x0a;

/**
 * Reads lines `offset`… of an open file chunk by chunk, keeping in memory only the chunk and the
 * lines returned, and stopping as soon as the page is full unless the file is small enough to be
 * read whole (then `totalLines` and `hash` are set). Lines end at `\n`; a `\r` before it is dropped.
 * Refuses binary files (a NUL byte or invalid UTF-8 in the first 8 KiB, as git and ripgrep decide).
 */
export async function readLinePage(fd: number, options: LinePageOptions): Promise<LinePage> {
  const { offset, limit, maxBytes, shown, signal } = options;
  const size = fs.fstatSync(fd).size;
  const whole = size <= options.wholeFileBytes;
  const hash = contentHasher();
  const head = Buffer.allocUnsafe(Math.min(size, BINARY_SNIFF_BYTES));
  if (size > 0 && isBinary(head.subarray(0, await readAt(fd, head, 0)), size > BINARY_SNIFF_BYTES)) {
    throw new WorkspaceError(
      'binary_file',
      `'${shown}' is a binary file (${size} bytes); file_read only returns text. Use a tool made for that format.`,
      shown,
    );
  }
  const chunk = Buffer.allocUnsafe(options.chunkBytes ?? CHUNK_BYTES);
  const keepBytes = Math.max(maxBytes - 128, Math.floor(maxBytes / 2));
  const lines: string[] = [];
  let used = 0;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let cut = false;
  let line = 1;
  let done = false;
  let more = false;
  let position = 0;
  let lastByte = NEWLINE;

  /** Ends the line being assembled, taking it if it fits; sets `done` when the page is full. */
  const finishLine = (endedByNewline: boolean): void => {
    const joined = Buffer.concat(parts, partBytes);
    let text = (cut ? atCharacterBoundary(joined) : joined).toString('utf8');
    if (cut) text = `${text}… [line cut: only its first ${partBytes} bytes are shown]`;
    else if (endedByNewline && text.endsWith('\r')) text = text.slice(0, -1);
    const numbered = `${line}\t${text}`;
    const bytes = modelSize(numbered) + 1;
    parts = [];
    partBytes = 0;
    if (used + bytes > maxBytes && lines.length > 0) {
      done = true;
      more = true;
      return;
    }
    lines.push(numbered);
    used += bytes;
    if (lines.length >= limit || cut) done = true;
  };

  for (;;) {
    if (signal?.aborted) throw signal.reason ?? new CoreToolError('cancelled', 'The read was cancelled.');
    const read = await readAt(fd, chunk, position);
    if (read === 0) break;
    const data = chunk.subarray(0, read);
    hash.update(data);
    position += read;
    lastByte = data[read - 1]!;
    for (let start = 0; start < read;) {
      const newline = data.indexOf(NEWLINE, start);
      const end = newline === -1 ? read : newline;
      if (!done && line >= offset && !cut) {
        const room = keepBytes - partBytes;
        if (lines.length > 0 && used + partBytes + (end - start) > maxBytes) {
          done = true; // this line cannot fit beside the ones already taken
          more = true;
        } else if (end - start > room) {
          parts.push(Buffer.from(data.subarray(start, start + room)));
          partBytes += room;
          cut = true;
        } else {
          parts.push(Buffer.from(data.subarray(start, end)));
          partBytes += end - start;
        }
      }
      if (newline === -1) break;
      if (!done && line >= offset) {
        finishLine(true);
        if (done && !more) more = newline + 1 < read || position < size;
      }
      line++;
      start = newline + 1;
    }
    if (!done && cut) {
      finishLine(false); // a line longer than the page: shown cut, and the page ends with it
      more = true;
    }
    if (done && !whole) return { lines, first: offset, more };
  }
  const totalLines = position === 0 ? 0 : line - (lastByte === NEWLINE ? 1 : 0);
  if (!done && line >= offset && lastByte !== NEWLINE) finishLine(false);
  const first = Math.min(offset, totalLines + 1);
  return { lines, first, more: first + lines.length - 1 < totalLines, totalLines, hash: hash.digest() };
}

/** The bytes up to the last whole UTF-8 character (a line cut mid-character loses the partial one). */
function atCharacterBoundary(bytes: Buffer): Buffer {
  let lead = bytes.length - 1;
  while (lead > bytes.length - 4 && lead > 0 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  const first = bytes[lead] ?? 0;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return lead + length > bytes.length ? bytes.subarray(0, lead) : bytes;
}

function readAt(fd: number, buffer: Buffer, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.read(fd, buffer, 0, buffer.length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead)));
  });
}

/** NUL bytes, or invalid UTF-8, in the first 8 KiB mean binary (as git and ripgrep decide). */
export function isBinary(buffer: Buffer, longer: boolean): boolean {
  const head = buffer.subarray(0, BINARY_SNIFF_BYTES);
  if (head.includes(0)) return true;
  let end = head.length;
  if (longer || buffer.length > BINARY_SNIFF_BYTES) {
    // A multi-byte sequence cut at the sniff boundary is not evidence of binary content.
    let i = end - 1;
    while (i > end - 4 && i >= 0 && (head[i]! & 0xc0) === 0x80) i--;
    if (i >= 0 && head[i]! >= 0xc0) end = i;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
    return false;
  } catch {
    return true;
  }
}
