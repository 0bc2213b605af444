import { renderedAs } from '@toolwright/registry';
import { tool } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { writeFileAtomic } from '../workspace/confined-file.js';
import { withWorkspaceErrors } from '../workspace/fs-error.js';
import { checkWellFormedContent } from '../workspace/text-rules.js';
import { renderName } from '../model-text/render-name.js';
import { useAsJudged } from '../as-judged.js';

export interface FileWriteResult {
  path: string;
  /** Bytes written (UTF-8). */
  bytes: number;
  /** True when the file did not exist before. */
  created: boolean;
}

/** Creates or overwrites files inside the workspace. */
export class FileWriteTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  /**
   * Creates a file, or replaces its whole content, with the given UTF-8 text. Missing parent directories
   * are created. The write is atomic: readers see the old content or the new, never a partial file.
   * To change part of an existing file, prefer `file_edit`. Writing under protected paths (such as
   * `.git/`) or in the `public:/` scope needs the user's approval.
   * @param path File to write, relative to the workspace root.
   * @param content The complete new content of the file.
   */
  @renderedAs(renderFileWrite)
  @tool({ tier: 'side-effecting', group: 'edit', sideEffects: ['fs-write'], capabilities: ['fs.write'], determinism: 'deterministic', timeout: '15s' })
  async fileWrite(path: string, content: string): Promise<FileWriteResult> {
    return withWorkspaceErrors(path, () => {
      checkWellFormedContent(content, '`content`', path);
      const resolved = useAsJudged(this.env.workspace.resolve(path, { kind: 'file' }), 'path', path);
      writeFileAtomic(resolved, content);
      this.env.readHashes?.delete(resolved.absolute);
      return { path: resolved.relative, bytes: Buffer.byteLength(content), created: !resolved.exists };
    });
  }
}

/** @example 'Wrote 12 bytes to notes.md (a new file).' */
export function renderFileWrite(write: FileWriteResult): string {
  return `Wrote ${write.bytes} bytes to ${renderName(write.path)} (${write.created ? 'a new file' : 'its previous content replaced'}).`;
}
