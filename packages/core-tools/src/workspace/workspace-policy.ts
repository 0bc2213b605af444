import path from 'node:path';
import { holdsSharedDirectory } from '@toolwright/sandbox';
import { canonicalise } from './canonical-path.js';
import { deniedPathMatcher, type DeniedPaths } from './denied-paths.js';
import { toWorkspaceError } from './fs-error.js';
import { canonicalRoot, checkFileType, lstatOrUndefined, realpathOfExistingPrefix, toRelative } from './path-lookup.js';
import { isWithin } from './is-within.js';
import { protectedPathMatcher } from './protected-paths.js';
import { checkWellFormedPath } from './text-rules.js';
import { WorkspaceError } from './workspace-error.js';

export { isWithin } from './is-within.js';

export type Scope = 'private' | 'shared' | 'public';
export const SCOPES: readonly Scope[] = ['private', 'shared', 'public'];

export interface WorkspaceConfig {
  /** The root of `private:/` (and of unscoped paths). */
  root: string;
  /** Roots of the other scopes, when configured. */
  shared?: string;
  public?: string;
  /**
   * Paths writable only with approval, gitignore-style (globs not supported): a name without `/`
   * (`.git`) is protected at any depth, an entry with one (`/build`, `config/keys`) only below its
   * scope root. Default: `DEFAULT_PROTECTED_PATHS` (`.git`, `.toolwright`, `.env`, Toolwright's
   * own `toolwright.config.json` and `toolwright.policy.json`, which decide what the next session may do,
   * and the package managers' configuration at the root: `/.npmrc`, `/.yarnrc`, `/.yarnrc.yml`, `/.pnpmfile.cjs`,
   * `/bunfig.toml`).
   */
  protectedPaths?: readonly string[];
  /**
   * Paths hidden from every tool, as glob patterns relative to the private root with the semantics of
   * a policy's path rules (picomatch: `*` within a segment, `**` across, dotfiles included, case
   * ignored): `secrets/**`, `config/*.pem`. A path is hidden when it or a parent matches. The tools refuse
   * it (`path_denied`), listings, globs and searches leave it out, and the shell may not name it nor
   * a tree that holds it. The CLI fills this from the policy's deny rules on reading tools.
   */
  deniedPaths?: readonly string[];
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
  /** Whether the target currently exists (for `resolveLink`, a dangling link counts). */
  exists: boolean;
  /** True for protected paths (e.g. anything under a `.git` directory): writes need explicit approval. */
  protected: boolean;
}

/**
 * Protected unless a workspace says otherwise: git's internals and hooks, Toolwright's state and audit
 * logs, secrets, the files that configure Toolwright itself (a model that could rewrite them would
 * choose its own shell allowlist and policy for the next session), and the package managers' own
 * configuration, which every command of theirs obeys on the host — `npx toolwright`, a hook's `npx
 * lint-staged` — and which can have them run code of its choosing (`.npmrc`'s `node-options`,
 * `.yarnrc.yml`'s `yarnPath`, a `.pnpmfile.cjs`, `bunfig.toml`'s `preload`; an independent review ran
 * code in the host that way).
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = Object.freeze([
  '.git',
  '.toolwright',
  '.env',
  'toolwright.config.json',
  'toolwright.policy.json',
  // At the root only: a package's own copy below (one in node_modules) is no project's, and held read-only there it
  // would fail every `npm ci` (the review found `node_modules/@tsd/typescript/typescript/.yarnrc`).
  '/.npmrc',
  '/.yarnrc',
  '/.yarnrc.yml',
  '/.pnpmfile.cjs',
  '/bunfig.toml',
]);
const MAX_SEGMENT_BYTES = 255;

/** Where an input lies before links are resolved: its scope, that scope's canonical root, the lexical path. */
interface Located {
  scope: Scope;
  root: string;
  lexical: string;
}

/**
 * The one gate every file tool and the shell's path arguments go through.
 *
 * A relative path is resolved against its scope root (`private:/` by default, or the `shared:/` and
 * `public:/` prefixes); an absolute path must lie under a scope root, spelled as given or canonical
 * (`/tmp/ws/a` and `/private/tmp/ws/a` alike), and is refused otherwise with the root named. The
 * result is canonicalised — the realpath of the target, or of its nearest existing parent for a new
 * file — and compared with the canonical root by path segments, never by string prefix (`/ws-evil`
 * is not inside `/ws`, `..test` is). Symlinks anywhere on the way that lead outside are refused. NUL
 * bytes, control characters, lone surrogates, over-long paths and special files (FIFOs, sockets,
 * devices) are refused with their own error. A path changed by someone else during the call is
 * refused as `changed_during_use`: `resolve` only ever throws `WorkspaceError`s. The check-then-use
 * race is closed at use time by `confined-file.ts`, which never follows a link it did not check.
 */
export class WorkspacePolicy {
  private readonly roots: Partial<Record<Scope, string>>;
  /** Every spelling of every root (given and canonical), longest first, for absolute inputs. */
  private readonly spellings: { scope: Scope; spelling: string }[] = [];
  private readonly isProtected: (relative: string) => boolean;
  /** The protected-path entries as configured (names at any depth, or anchored paths with a `/`). */
  readonly protectedEntries: readonly string[];
  private readonly denied: DeniedPaths;
  private readonly maxPathBytes: number;
  /** The patterns of `deniedPaths`, normalised: what the tools hide (a kernel sandbox hides the same). */
  readonly deniedPatterns: readonly string[];

  constructor(config: WorkspaceConfig) {
    this.roots = {};
    for (const scope of SCOPES) {
      const given = scope === 'private' ? config.root : config[scope];
      if (!given) continue;
      const canonical = canonicalRoot(given, scope);
      // Its tools would reach the folder where Toolwright keeps what its processes share (the turn's lock, the
      // record of placeholders, the files sandboxes are built from): refused (found by a tenth pass).
      const holds = holdsSharedDirectory(canonical);
      if (holds) throw new WorkspaceError('invalid_path', `The ${scope}:/ root cannot be used: ${holds}.`);
      this.roots[scope] = canonical;
      for (const spelling of new Set([path.resolve(given), canonical])) this.spellings.push({ scope, spelling });
    }
    this.spellings.sort((a, b) => b.spelling.length - a.spelling.length);
    this.protectedEntries = Object.freeze([...(config.protectedPaths ?? DEFAULT_PROTECTED_PATHS)]);
    this.isProtected = protectedPathMatcher(this.protectedEntries);
    this.denied = deniedPathMatcher(config.deniedPaths ?? []);
    this.deniedPatterns = Object.freeze([...this.denied.patterns]);
    this.maxPathBytes = config.maxPathBytes ?? 4096;
  }

  /** Whether a scope-relative, `/`-separated path is protected (writes need explicit approval). */
  protects(relative: string): boolean {
    return this.isProtected(relative);
  }

  /** Whether a `/`-separated path relative to the private root is hidden by `deniedPaths` (it or a parent matches). */
  denies(relative: string): boolean {
    return this.denied.deniedBy(relative) !== undefined;
  }

  /** The `deniedPaths` pattern that hides a path relative to the private root (it or a parent), or undefined. */
  deniedBy(relative: string): string | undefined {
    return this.denied.deniedBy(relative);
  }

  /** The pattern hiding a canonical absolute path, when it lies under the private root (whatever scope reached it). */
  deniedAt(absolute: string): { relative: string; pattern: string } | undefined {
    const root = this.roots.private;
    if (this.deniedPatterns.length === 0 || !root || !isWithin(root, absolute)) return undefined;
    const relative = toRelative(root, absolute);
    const pattern = this.denied.deniedBy(relative);
    return pattern === undefined ? undefined : { relative, pattern };
  }

  /**
   * For a walk of the canonical directory `dir`: the pattern hiding a path relative to it, looking at
   * that path alone (a walk never enters a hidden directory, so the parents were looked at on the way
   * down; `dir` itself must not be hidden). Undefined when nothing under `dir` can be hidden.
   */
  hidingUnder(dir: string): ((relative: string) => string | undefined) | undefined {
    const root = this.roots.private;
    if (this.deniedPatterns.length === 0 || !root) return undefined;
    if (isWithin(root, dir)) {
      const prefix = toRelative(root, dir);
      return (relative) => this.denied.hides(prefix === '' ? relative : `${prefix}/${relative}`);
    }
    if (!isWithin(dir, root)) return undefined;
    return (relative) => {
      const absolute = path.join(dir, relative);
      return isWithin(root, absolute) ? this.denied.hides(toRelative(root, absolute)) : undefined;
    };
  }

  /**
   * Whether something inside the directory at canonical `absolute` may be hidden; false lets a tree
   * search for hidden paths skip it (`secrets/**` can hide nothing under `src/`).
   */
  mayHideBelow(absolute: string): boolean {
    const root = this.roots.private;
    if (this.deniedPatterns.length === 0 || !root) return false;
    if (isWithin(root, absolute)) return this.denied.mayHideBelow(toRelative(root, absolute));
    return isWithin(absolute, root); // a directory holding the private root holds all it hides
  }

  /** Every absolute spelling of a scope's root: as configured and canonical (they differ where a link leads to it). */
  spellingsOf(scope: Scope): string[] {
    return this.spellings.filter((entry) => entry.scope === scope).map((entry) => entry.spelling);
  }

  /** The canonical root of a scope, or an error naming the configured scopes. */
  rootOf(scope: Scope): string {
    const root = this.roots[scope];
    if (!root)
      throw new WorkspaceError(
        'unknown_scope',
        `The ${scope}:/ scope is not configured in this workspace; use ${Object.keys(this.roots)
          .map((s) => `${s}:/`)
          .join(' or ')}.`,
      );
    return root;
  }

  /**
   * Resolves a user- or model-supplied path. `mustExist` refuses missing targets; `kind` checks the
   * target's type. Never follows a final symlink that leads outside; for writing, the final component
   * may be a new name under an existing (checked) directory. A path `deniedPaths` hides is refused
   * (`path_denied`) unless `allowDenied` (for spelling a path for policy rules, never for using it).
   */
  resolve(input: string, options: { mustExist?: boolean; kind?: 'file' | 'directory'; allowDenied?: boolean } = {}): ResolvedPath {
    try {
      const { scope, root, lexical } = this.locate(input);
      const { canonical, exists } = canonicalise(lexical, root, input);
      if (!isWithin(root, canonical)) {
        throw new WorkspaceError('symlink_escape', `'${input}' goes through a symbolic link that leads outside the workspace; it is refused.`, input);
      }
      if (!options.allowDenied) this.refuseDenied(canonical, input);
      if (exists) checkFileType(canonical, input, options.kind);
      else if (options.mustExist) throw new WorkspaceError('not_found', `'${input}' does not exist.`, input);
      const relative = toRelative(root, canonical);
      return { scope, absolute: canonical, relative, root, exists, protected: this.isProtected(relative) };
    } catch (error) {
      throw toWorkspaceError(error, input);
    }
  }

  /**
   * Resolves a path whose final component is to be acted on itself, not followed (deleting or
   * renaming a symlink): the parent is canonicalised and checked; the last name is kept as given.
   * A hidden path is refused as by `resolve`.
   */
  resolveLink(input: string, options: { allowDenied?: boolean } = {}): ResolvedPath {
    try {
      const { scope, root, lexical } = this.locate(input);
      if (lexical === root) return { scope, absolute: root, relative: '', root, exists: true, protected: false };
      const parent = canonicalise(path.dirname(lexical), root, input);
      if (!isWithin(root, parent.canonical)) {
        throw new WorkspaceError('symlink_escape', `'${input}' goes through a symbolic link that leads outside the workspace; it is refused.`, input);
      }
      if (parent.exists) checkFileType(parent.canonical, input, 'directory', 'parent');
      const absolute = path.join(parent.canonical, path.basename(lexical));
      if (!options.allowDenied) this.refuseDenied(absolute, input);
      const relative = toRelative(root, absolute);
      return { scope, absolute, relative, root, exists: parent.exists && lstatOrUndefined(absolute) !== undefined, protected: this.isProtected(relative) };
    } catch (error) {
      throw toWorkspaceError(error, input);
    }
  }

  private refuseDenied(absolute: string, input: string): void {
    const denied = this.deniedAt(absolute);
    if (denied)
      throw new WorkspaceError(
        'path_denied',
        `'${input}' is hidden by a policy deny rule (pattern '${denied.pattern}'): no tool may read, list, search or change it. Work with other files.`,
        input,
      );
  }

  /** Checks the text, picks the scope and root, and refuses paths that leave the root lexically. */
  private locate(input: string): Located {
    this.checkText(input);
    const scoped = /^([a-z]+):\//.exec(input);
    if (scoped) {
      const scope = scoped[1] as Scope;
      if (!SCOPES.includes(scope)) throw new WorkspaceError('unknown_scope', `Unknown scope '${scoped[1]}:/'; use private:/, shared:/ or public:/.`, input);
      return this.within(scope, input.slice(scoped[0].length).replace(/^\/+/, ''), input);
    }
    if (path.isAbsolute(input)) return this.locateAbsolute(input);
    return this.within('private', input, input);
  }

  private within(scope: Scope, relative: string, input: string): Located {
    const root = this.rootOf(scope);
    const lexical = path.resolve(root, relative);
    if (!isWithin(root, lexical)) {
      throw new WorkspaceError(
        'outside_workspace',
        `'${input}' points outside the ${scope}:/ workspace (its root is ${root}); use a path inside it (relative paths are resolved from its root).`,
        input,
      );
    }
    return { scope, root, lexical };
  }

  /**
   * An absolute path means that very file: it must lie under a scope root, however the root is
   * spelled (as configured, canonical, or through links elsewhere that lead into it).
   */
  private locateAbsolute(input: string): Located {
    const normal = path.resolve(input);
    const given = this.spellings.find(({ spelling }) => isWithin(spelling, normal));
    if (given) return this.within(given.scope, path.relative(given.spelling, normal), input);
    const real = realpathOfExistingPrefix(normal);
    const scope = SCOPES.filter((s) => this.roots[s] && isWithin(this.roots[s], real)).sort((a, b) => this.roots[b]!.length - this.roots[a]!.length)[0];
    if (scope) return this.within(scope, path.relative(this.roots[scope]!, real), input);
    const others = SCOPES.filter((s) => s !== 'private' && this.roots[s])
      .map((s) => `, ${s}:/ at ${this.roots[s]}`)
      .join('');
    throw new WorkspaceError(
      'outside_workspace',
      `'${input}' is an absolute path outside the workspace, whose root is ${this.roots.private}${others}; use a path relative to that root (such as 'src/index.ts') or an absolute path under it.`,
      input,
    );
  }

  private checkText(input: string): void {
    if (typeof input !== 'string' || input.length === 0) throw new WorkspaceError('invalid_path', 'The path is empty; give a file or directory path.');
    if (input.includes('\0')) throw new WorkspaceError('invalid_path', 'The path contains a NUL byte, which no file name can hold.', input);
    if (/[\u0001-\u001f\u007f]/.test(input))
      throw new WorkspaceError(
        'invalid_path',
        'The path contains control characters (such as a newline or tab); file names here may not.',
        JSON.stringify(input),
      );
    checkWellFormedPath(input);
    if (Buffer.byteLength(input) > this.maxPathBytes) throw new WorkspaceError('invalid_path', `The path is longer than ${this.maxPathBytes} bytes.`);
    if (input.split(/[\\/]/).some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) {
      throw new WorkspaceError('invalid_path', `A path segment is longer than ${MAX_SEGMENT_BYTES} bytes.`, input);
    }
  }
}
