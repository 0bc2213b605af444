import fs from 'node:fs';
import { renderedAs } from '@toolwright/registry';
import { content, getToolContext, image, isToolContent, tool, type Integer, type ToolContent } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { openForReading } from '../workspace/confined-file.js';
import { withWorkspaceErrors } from '../workspace/fs-error.js';
import { readLinePage } from './file-read-lines.js';
import { outputBudget } from '../model-text/output-budget.js';
import { useAsJudged } from '../as-judged.js';

/** What `file_read` returns. */
export interface FileReadResult {
  /** The lines, each prefixed with its 1-based number and a tab. */
  content: string;
  /** Number of the first line returned. */
  startLine: Integer;
  /** Number of the last line returned (0 when the file is empty). */
  endLine: Integer;
  /** Number of lines in the file; absent when it is over 16 MiB and was not read to its end. */
  totalLines?: Integer;
  /** Whether lines after `endLine` remain. */
  truncated: boolean;
  /** What to call next to continue, when truncated. */
  next?: string;
  /** sha-256 of the whole file, for `file_edit`'s `expectedHash`; absent when `totalLines` is (`file_edit` edits files up to 16 MiB). */
  hash?: string;
}

const DEFAULT_LIMIT = 2000;
/** Room kept for the line that says where the page ends and how to read on. */
const FOOTER_ROOM = 120;
/** The smallest page, whatever the budget: one line cut to about this size. */
const MIN_PAGE_BYTES = 256;
/** Files up to this size are read whole (for `totalLines` and `hash`); `file_edit` edits no larger ones. */
export const WHOLE_FILE_BYTES = 16 * 1024 * 1024;

/** Images `file_read` shows as images, by their first bytes, up to this size. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_SIGNATURES: readonly { mimeType: string; test: (head: Buffer) => boolean }[] = [
  { mimeType: 'image/png', test: (head) => head.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])) },
  { mimeType: 'image/jpeg', test: (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff },
  { mimeType: 'image/gif', test: (head) => head.subarray(0, 6).toString('latin1') === 'GIF87a' || head.subarray(0, 6).toString('latin1') === 'GIF89a' },
  { mimeType: 'image/webp', test: (head) => head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP' },
];

/** Reads text files inside the workspace. */
export class FileReadTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  /**
   * Reads a UTF-8 text file from the workspace and returns its lines numbered from 1 (`<n>\t<line>`).
   * Reads at most `limit` lines (default 2000) starting at line `offset` (default 1), and no more text
   * than the call's output budget (about 16 KiB; a longer line is cut); when more remains, the last
   * line says which lines you got and the offset to read on from. An image (PNG, JPEG, GIF, WebP) up to
   * 5 MiB is returned as the image itself; other binary files are refused. Files
   * over 16 MiB are read only as far as needed, so their lines are not counted. Paths are relative to
   * the workspace root (an absolute path must lie inside it); `shared:/` and `public:/` select other scopes.
   * @param path File to read, e.g. `src/index.ts`.
   * @param offset Line number to start at (1 = the first line).
   * @param limit Maximum number of lines to return.
   */
  @renderedAs(renderFileRead)
  @tool({ tier: 'read-only', group: 'search', sideEffects: ['fs-read'], capabilities: ['fs.read'], determinism: 'deterministic', timeout: '10s' })
  async fileRead(
    path: string,
    /** @minimum 1 */ offset: Integer = 1,
    /** @minimum 1 @maximum 10000 */ limit: Integer = DEFAULT_LIMIT,
  ): Promise<FileReadResult | ToolContent> {
    return withWorkspaceErrors(path, async () => {
      const resolved = useAsJudged(this.env.workspace.resolve(path, { mustExist: true, kind: 'file' }), 'path', path);
      const fd = openForReading(resolved);
      let page;
      try {
        const shown = readImage(fd, path);
        if (shown) return shown;
        const signal = getToolContext()?.signal;
        const maxBytes = Math.max(MIN_PAGE_BYTES, Math.min(this.env.maxReadBytes ?? 64 * 1024, outputBudget() - FOOTER_ROOM));
        page = await readLinePage(fd, { offset, limit, maxBytes, wholeFileBytes: WHOLE_FILE_BYTES, shown: path, ...(signal ? { signal } : {}) });
      } finally {
        fs.closeSync(fd);
      }
      if (page.hash !== undefined) this.env.readHashes?.set(resolved.absolute, page.hash);
      const endLine = Math.max(0, page.first + page.lines.length - 1);
      return {
        content: page.lines.join('\n'),
        startLine: page.first,
        endLine,
        ...(page.totalLines !== undefined ? { totalLines: page.totalLines } : {}),
        truncated: page.more,
        ...(page.more ? { next: `file_read with path ${JSON.stringify(path)} and offset ${endLine + 1}` } : {}),
        ...(page.hash !== undefined ? { hash: page.hash } : {}),
      };
    });
  }
}

/** An image file (known by its first bytes) as the image, up to `MAX_IMAGE_BYTES`; undefined for any other file. */
function readImage(fd: number, path: string): ToolContent | undefined {
  const head = Buffer.alloc(12);
  const headBytes = fs.readSync(fd, head, 0, head.length, 0);
  const kind = IMAGE_SIGNATURES.find((signature) => signature.test(head.subarray(0, headBytes)));
  if (!kind) return undefined;
  const size = fs.fstatSync(fd).size;
  if (size > MAX_IMAGE_BYTES)
    throw new Error(
      `${path} is an image (${kind.mimeType}) of ${(size / 1024 / 1024).toFixed(1)} MiB, over the ${MAX_IMAGE_BYTES / 1024 / 1024} MiB file_read shows`,
    );
  const bytes = Buffer.alloc(size);
  let read = 0;
  while (read < size) {
    const got = fs.readSync(fd, bytes, read, size - read, read);
    if (got === 0) break;
    read += got;
  }
  return content(`${path}: ${kind.mimeType}, ${read} bytes`, image(bytes.subarray(0, read), kind.mimeType));
}

/**
 * The numbered lines as plain text, then (unless the whole file was shown) a line saying which lines
 * these are and where to read on:
 * @example '1\tone\n2\ttwo\n[lines 1–2 of 5; read on with offset 3]'
 */
export function renderFileRead(page: FileReadResult | ToolContent): string {
  // An image is worded by the executor, as content blocks are; this is what a caller of the renderer alone reads.
  if (isToolContent(page)) return page.blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
  if (page.totalLines === 0) return '[the file is empty]';
  const of = page.totalLines !== undefined ? `of ${page.totalLines}` : 'of a file over 16 MiB, not counted';
  if (page.content === '') return `[the file has ${page.totalLines} lines; there are none from line ${page.startLine} on]`;
  if (!page.truncated && page.startLine === 1) return page.content;
  const where = `lines ${page.startLine}–${page.endLine} ${of}`;
  return `${page.content}\n[${page.truncated ? `${where}; read on with offset ${page.endLine + 1}` : `${where}; this is the end of the file`}]`;
}
