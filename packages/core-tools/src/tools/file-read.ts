import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { tool, type Integer } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { openForReading } from '../workspace/confined-file.js';

/** What `file_read` returns. */
export interface FileReadResult {
  /** The lines, each prefixed with its 1-based number and a tab. */
  content: string;
  /** Number of the first line returned. */
  startLine: Integer;
  /** Number of the last line returned (0 when the file is empty). */
  endLine: Integer;
  totalLines: Integer;
  /** Whether lines after `endLine` remain. */
  truncated: boolean;
  /** What to call next to continue, when truncated. */
  next?: string;
  /** sha-256 of the whole file, for `file_edit`'s `expectedHash`. */
  hash: string;
}

const DEFAULT_LIMIT = 2000;
const BINARY_SNIFF_BYTES = 8192;

/** Reads text files inside the workspace. */
export class FileReadTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  /**
   * Reads a UTF-8 text file from the workspace and returns its lines numbered from 1 (`<n>\t<line>`).
   * Reads at most `limit` lines (default 2000) starting at line `offset` (default 1), and at most 64 KiB
   * of text; when more remains, `truncated` is true and `next` says which call continues. Binary files
   * are refused. Paths are relative to the workspace root; `shared:/` and `public:/` select other scopes.
   * @param path File to read, e.g. `src/index.ts`.
   * @param offset Line number to start at (1 = the first line).
   * @param limit Maximum number of lines to return.
   */
  @tool({ tier: 'read-only', group: 'search', sideEffects: ['fs-read'], capabilities: ['fs.read'], determinism: 'deterministic', timeout: '10s' })
  async fileRead(path: string, /** @minimum 1 */ offset: Integer = 1, /** @minimum 1 @maximum 10000 */ limit: Integer = DEFAULT_LIMIT): Promise<FileReadResult> {
    const resolved = this.env.workspace.resolve(path, { mustExist: true, kind: 'file' });
    const fd = openForReading(resolved);
    let buffer: Buffer;
    try {
      buffer = fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (isBinary(buffer)) {
      throw new Error(`'${path}' is a binary file (${buffer.length} bytes); file_read only returns text. Use a tool made for that format.`);
    }
    const text = buffer.toString('utf8');
    const lines = text.length === 0 ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
    const maxBytes = this.env.maxReadBytes ?? 64 * 1024;
    const first = Math.min(offset, lines.length + 1);
    const selected: string[] = [];
    let bytes = 0;
    for (let n = first; n <= lines.length && selected.length < limit; n++) {
      const line = `${n}\t${lines[n - 1]}`;
      bytes += Buffer.byteLength(line) + 1;
      if (bytes > maxBytes && selected.length > 0) break;
      selected.push(line);
    }
    const hash = createHash('sha256').update(buffer).digest('hex');
    this.env.readHashes?.set(resolved.absolute, hash);
    const endLine = first + selected.length - 1;
    const truncated = endLine < lines.length;
    return {
      content: selected.join('\n'),
      startLine: first,
      endLine: Math.max(0, endLine),
      totalLines: lines.length,
      truncated,
      ...(truncated ? { next: `file_read with path "${path}" and offset ${endLine + 1}` } : {}),
      hash,
    };
  }
}

/** NUL bytes, or invalid UTF-8, in the first 8 KiB mean binary (as git and ripgrep decide). */
function isBinary(buffer: Buffer): boolean {
  const head = buffer.subarray(0, BINARY_SNIFF_BYTES);
  if (head.includes(0)) return true;
  let end = head.length;
  if (buffer.length > BINARY_SNIFF_BYTES) {
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
