import fs from 'node:fs';
import path from 'node:path';
import { WorkspaceError } from './workspace-error.js';

export type Scope = 'private' | 'shared' | 'public';
export const SCOPES: readonly Scope[] = ['private', 'shared', 'public'];

export interface WorkspaceConfig {
  /** The root of `private:/` (and of unscoped paths). */
  root: string;
  /** Roots of the other scopes, when configured. */
  shared?: string;
  public?: string;
  /** Paths (relative to their scope root, `/`-separated, globs not supported) writable only with approval. */
  protectedPaths?: readonly string[];
  /** Longest path accepted, in bytes (default 4096, Linux's PATH_MAX). */
  maxPathBytes?: number;
}

/** A path that passed the policy: where it is, in which scope, and what it may do there. */
export interface ResolvedPath {
  scope: Scope;
  /** Canonical absolute path (symlinks of existing parents resolved). */
  absolute: string;
  /** Path relative to the scope root, `/`-separated ('' for the root itself). */
  relative: string;
  /** The canonical root of the scope. */
  root: string;
  /** Whether the target currently exists (as anything, including a dangling symlink). */
  exists: boolean;
  /** True for paths under a protected prefix (e.g. `.git/`): writes need explicit approval. */
  protected: boolean;
}

const DEFAULT_PROTECTED = ['.git', '.toolwright', '.env'];
const MAX_SEGMENT_BYTES = 255;

/**
 * The one gate every file tool and the shell's path arguments go through.
 *
 * A path is resolved against its scope root (`private:/` by default), canonicalised — the realpath of
 * the target, or of its nearest existing parent for a new file — and compared with the canonical root
 * by path segments, never by string prefix (`/ws-evil` is not inside `/ws`). Symlinks anywhere on the
 * way that lead outside are refused. NUL bytes, control characters, over-long paths and special files
 * (FIFOs, sockets, devices) are refused with their own error. The check-then-use race is closed at use
 * time by `openConfined`, which opens without following symlinks and verifies the opened file.
 */
export class WorkspacePolicy {
  private readonly roots: Partial<Record<Scope, string>>;
  private readonly protectedPaths: readonly string[];
  private readonly maxPathBytes: number;

  constructor(config: WorkspaceConfig) {
    this.roots = { private: canonicalRoot(config.root, 'private') };
    if (config.shared) this.roots.shared = canonicalRoot(config.shared, 'shared');
    if (config.public) this.roots.public = canonicalRoot(config.public, 'public');
    this.protectedPaths = (config.protectedPaths ?? DEFAULT_PROTECTED).map((p) => p.replace(/^\/+|\/+$/g, ''));
    this.maxPathBytes = config.maxPathBytes ?? 4096;
  }

  /** The canonical root of a scope, or an error naming the configured scopes. */
  rootOf(scope: Scope): string {
    const root = this.roots[scope];
    if (!root) throw new WorkspaceError('unknown_scope', `The ${scope}:/ scope is not configured in this workspace; use ${Object.keys(this.roots).map((s) => `${s}:/`).join(' or ')}.`);
    return root;
  }

  /**
   * Resolves a user- or model-supplied path. `mustExist` refuses missing targets; `kind` checks the
   * target's type. Never follows a final symlink that leads outside; for writing, the final component
   * may be a new name under an existing (checked) directory.
   */
  resolve(input: string, options: { mustExist?: boolean; kind?: 'file' | 'directory' } = {}): ResolvedPath {
    const { scope, rest } = this.splitScope(input);
    this.checkText(input, rest);
    const root = this.rootOf(scope);
    const lexical = path.resolve(root, rest.replace(/^\/+/, ''));
    if (!isWithin(root, lexical)) {
      throw new WorkspaceError('outside_workspace', `'${input}' points outside the ${scope}:/ workspace; use a path inside it (relative paths are resolved from its root).`, input);
    }
    const { canonical, exists } = canonicalise(lexical, root, input);
    if (!isWithin(root, canonical)) {
      throw new WorkspaceError('symlink_escape', `'${input}' goes through a symbolic link that leads outside the workspace; it is refused.`, input);
    }
    if (exists) this.checkFileType(canonical, input, options.kind);
    else if (options.mustExist) throw new WorkspaceError('not_found', `'${input}' does not exist.`, input);
    const relative = path.relative(root, canonical).split(path.sep).join('/');
    return { scope, absolute: canonical, relative, root, exists, protected: this.isProtected(relative) };
  }

  /**
   * Resolves a path whose final component is to be acted on itself, not followed (deleting or
   * renaming a symlink): the parent is canonicalised and checked; the last name is kept as given.
   */
  resolveLink(input: string): ResolvedPath {
    const { scope, rest } = this.splitScope(input);
    this.checkText(input, rest);
    const root = this.rootOf(scope);
    const lexical = path.resolve(root, rest.replace(/^\/+/, ''));
    if (!isWithin(root, lexical)) {
      throw new WorkspaceError('outside_workspace', `'${input}' points outside the ${scope}:/ workspace; use a path inside it.`, input);
    }
    if (lexical === root) return { scope, absolute: root, relative: '', root, exists: true, protected: false };
    const parent = this.resolve(`${scope}:/${path.relative(root, path.dirname(lexical)).split(path.sep).join('/')}`, {});
    const absolute = path.join(parent.absolute, path.basename(lexical));
    const relative = path.relative(root, absolute).split(path.sep).join('/');
    const exists = fs.lstatSync(absolute, { throwIfNoEntry: false }) !== undefined;
    return { scope, absolute, relative, root, exists, protected: this.isProtected(relative) };
  }

  private splitScope(input: string): { scope: Scope; rest: string } {
    const match = /^([a-z]+):\//.exec(input);
    if (!match) return { scope: 'private', rest: input };
    const scope = match[1] as Scope;
    if (!SCOPES.includes(scope)) throw new WorkspaceError('unknown_scope', `Unknown scope '${match[1]}:/'; use private:/, shared:/ or public:/.`, input);
    return { scope, rest: input.slice(match[0].length - 1) };
  }

  private checkText(input: string, rest: string): void {
    if (typeof input !== 'string' || input.length === 0) throw new WorkspaceError('invalid_path', 'The path is empty; give a file or directory path.');
    if (input.includes('\0')) throw new WorkspaceError('invalid_path', 'The path contains a NUL byte, which no file name can hold.', input);
    // eslint-disable-next-line no-control-regex
    if (/[\u0001-\u001f\u007f]/.test(input)) throw new WorkspaceError('invalid_path', 'The path contains control characters (such as a newline or tab); file names here may not.', JSON.stringify(input));
    if (Buffer.byteLength(input) > this.maxPathBytes) throw new WorkspaceError('invalid_path', `The path is longer than ${this.maxPathBytes} bytes.`);
    if (rest.split(/[\\/]/).some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) {
      throw new WorkspaceError('invalid_path', `A path segment is longer than ${MAX_SEGMENT_BYTES} bytes.`, input);
    }
  }

  private checkFileType(canonical: string, input: string, kind?: 'file' | 'directory'): void {
    const stat = fs.lstatSync(canonical);
    if (stat.isFIFO() || stat.isSocket() || stat.isCharacterDevice() || stat.isBlockDevice()) {
      throw new WorkspaceError('special_file', `'${input}' is a ${stat.isFIFO() ? 'named pipe (FIFO)' : stat.isSocket() ? 'socket' : 'device'}, not a regular file; it is refused.`, input);
    }
    if (kind === 'file' && !stat.isFile()) throw new WorkspaceError('not_a_file', `'${input}' is a directory, not a file.`, input);
    if (kind === 'directory' && !stat.isDirectory()) throw new WorkspaceError('not_a_directory', `'${input}' is not a directory.`, input);
  }

  private isProtected(relative: string): boolean {
    return this.protectedPaths.some((p) => relative === p || relative.startsWith(`${p}/`));
  }
}

/** Whether `target` equals `root` or lies below it, compared segment by segment. */
export function isWithin(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative) && relative.split(path.sep)[0] !== '..');
}

function canonicalRoot(root: string, scope: Scope): string {
  try {
    const real = fs.realpathSync.native(path.resolve(root));
    if (!fs.statSync(real).isDirectory()) throw new Error('not a directory');
    return real;
  } catch (error) {
    throw new WorkspaceError('invalid_path', `The ${scope}:/ root '${root}' is not an existing directory (${(error as Error).message}).`);
  }
}

/**
 * realpath of the target when it exists (a dangling final symlink counts as existing and is resolved
 * through its link text); otherwise realpath of the nearest existing ancestor plus the missing tail.
 */
function canonicalise(lexical: string, root: string, input: string): { canonical: string; exists: boolean } {
  let existing = lexical;
  const tail: string[] = [];
  for (;;) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(existing);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
        throw new WorkspaceError('not_a_directory', `A parent of '${input}' is a file, not a directory.`, input);
      }
    }
    if (stat) {
      if (stat.isSymbolicLink()) {
        let real: string;
        try {
          real = fs.realpathSync.native(existing);
        } catch {
          // A dangling or looping link: judge where its text points.
          real = path.resolve(path.dirname(existing), fs.readlinkSync(existing));
          if (!isWithin(root, real)) return { canonical: real, exists: true };
          return { canonical: path.join(real, ...tail), exists: tail.length === 0 };
        }
        return { canonical: path.join(real, ...tail), exists: tail.length === 0 };
      }
      const real = fs.realpathSync.native(existing);
      return { canonical: path.join(real, ...tail), exists: tail.length === 0 };
    }
    const parent = path.dirname(existing);
    if (parent === existing) return { canonical: path.join(existing, ...tail), exists: false };
    tail.unshift(path.basename(existing));
    existing = parent;
  }
}
