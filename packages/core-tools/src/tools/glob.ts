import picomatch from 'picomatch';
import { tool, type Integer } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { walk } from '../workspace/walk.js';

export interface GlobResult {
  /** Matching file paths, relative to the searched directory, newest first. */
  files: string[];
  truncated: boolean;
}

/** Finds files by name pattern. */
export class GlobTool {
  constructor(private readonly env: CoreToolsEnvironment) {}

  // The description lives in the options: its glob examples contain `*/`, which would end a JSDoc comment.
  /**
   * @param pattern Glob pattern, relative to `path`.
   * @param path Directory to search in (default: the workspace root).
   * @param limit Maximum number of paths.
   */
  @tool({
    description: 'Finds files whose path matches a glob pattern (e.g. `src/**/*.ts`, `**/package.json`), newest first (by modification time). `*` matches within one path segment, `**` across segments, `{a,b}` either. Files ignored by `.gitignore` and the `.git` and `.toolwright` folders are skipped. Returns at most `limit` paths (default 200); `truncated` says when more matched.',
    tier: 'read-only', group: 'search', sideEffects: ['fs-read'], capabilities: ['fs.read'], determinism: 'deterministic', timeout: '30s',
  })
  async glob(pattern: string, path: string = '.', /** @minimum 1 @maximum 5000 */ limit: Integer = 200): Promise<GlobResult> {
    if (pattern.trim() === '') throw new Error('The pattern is empty; give a glob such as `**/*.ts`.');
    const resolved = this.env.workspace.resolve(path, { mustExist: true, kind: 'directory' });
    const matches = picomatch(pattern, { dot: true });
    const files = walk(resolved.absolute, {}).entries.filter((e) => e.kind === 'file' && matches(e.relative));
    files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.relative < b.relative ? -1 : 1));
    return { files: files.slice(0, limit).map((e) => e.relative), truncated: files.length > limit };
  }
}
