import fs from 'node:fs';
import { getToolContext, tool, type Integer } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { openForReading } from '../workspace/confined-file.js';
import { withWorkspaceErrors } from '../workspace/fs-error.js';
import { readLinePage } from './file-read-lines.js';

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
/** Files up to this size are read whole (for `totalLines` and `hash`); `file_edit` edits no larger ones. */
export const WHOLE_FILE_BYTES = 16 * 1024 * 1024;

/** Reads text files inside the workspace. */
export class FileReadTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  /**
   * Reads a UTF-8 text file from the workspace and returns its lines numbered from 1 (`<n>\t<line>`).
   * Reads at most `limit` lines (default 2000) starting at line `offset` (default 1), and at most 64 KiB
   * of text (a longer line is cut); when more remains, `truncated` is true and `next` says which call
   * continues. Binary files are refused. Files over 16 MiB are read only as far as needed, without
   * `totalLines` and `hash`. Paths are relative to the workspace root (an absolute path must lie inside
   * it); `shared:/` and `public:/` select other scopes.
   * @param path File to read, e.g. `src/index.ts`.
   * @param offset Line number to start at (1 = the first line).
   * @param limit Maximum number of lines to return.
   */
  @tool({ tier: 'read-only', group: 'search', sideEffects: ['fs-read'], capabilities: ['fs.read'], determinism: 'deterministic', timeout: '10s' })
  async fileRead(path: string, /** @minimum 1 */ offset: Integer = 1, /** @minimum 1 @maximum 10000 */ limit: Integer = DEFAULT_LIMIT): Promise<FileReadResult> {
    return withWorkspaceErrors(path, async () => {
      const resolved = this.env.workspace.resolve(path, { mustExist: true, kind: 'file' });
      const fd = openForReading(resolved);
      let page;
      try {
        const signal = getToolContext()?.signal;
        page = await readLinePage(fd, { offset, limit, maxBytes: this.env.maxReadBytes ?? 64 * 1024, wholeFileBytes: WHOLE_FILE_BYTES, shown: path, ...(signal ? { signal } : {}) });
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
        ...(page.more ? { next: `file_read with path "${path}" and offset ${endLine + 1}` } : {}),
        ...(page.hash !== undefined ? { hash: page.hash } : {}),
      };
    });
  }
}
