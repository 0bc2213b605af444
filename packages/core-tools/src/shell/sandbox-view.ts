import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_LIMITS,
  holdPlaceholders,
  isPlaceholder,
  readableProblem,
  type PlaceholderRequest,
  type ResourceLimits,
  type SandboxPolicy,
  identityOf,
  workspaceProblem,
  type DirectoryIdentity,
} from '@toolwright/sandbox';
import { CoreToolError } from '../core-tool-error.js';
import { hiddenPathsUnder } from '../workspace/tree-scan.js';
import { undecodableMatch } from '../workspace/undecodable-names.js';
import { walk, type WalkOptions } from '../workspace/walk.js';
import { spelledFrom } from './git-config-references.js';
import { gitReferencedPaths, physicalPath } from './git-referenced-paths.js';
import { LinksOnTheWay, lstatOrUndefined } from './links-on-the-way.js';
import { ListedDirectories } from './listed-directories.js';
import type { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { isWithin } from '../workspace/workspace-policy.js';
import { readPlainFile } from '../workspace/plain-file.js';

/** How the shell's sandbox is set up, from the shell configuration. */
export interface SandboxSettings {
  /**
   * Whether commands may use the network (default false: loopback only); where the caller grants
   * capabilities explicitly, only calls holding `net.connect` get it.
   */
  network?: boolean;
  /** Directories outside the workspace that commands may read, besides the system's (e.g. a toolchain in `/opt`). */
  readablePaths?: readonly string[];
  limits?: Partial<ResourceLimits>;
}

/** Entries looked at when searching the workspace for protected paths below its root (best effort, breadth-first). */
const SCAN_ENTRIES = 20_000;
/**
 * Entries a search for the paths deny rules hide may look at (it enters only folders where a rule
 * may match): about 0.3 s. Past it the command is refused — the sandbox must hide them all.
 */
export const HIDDEN_SCAN_ENTRIES = 200_000;
let hiddenScanEntries = HIDDEN_SCAN_ENTRIES;

/**
 * For tests: a lower bound for the search of hidden paths (undefined restores it), so that a test of what happens
 * past it need not make 200,000 files first (a minute of a loaded CI machine's disk).
 */
export function hiddenScanEntriesForTests(entries: number | undefined): void {
  hiddenScanEntries = entries ?? HIDDEN_SCAN_ENTRIES;
}
/** Protected names that stand for directories (the rest are files): what a missing one's placeholder is. */
const DIRECTORY_NAMES = new Set(['.git', '.toolwright']);
/** Names git looks for at the root besides `.git`: a valid `HEAD` (with `objects/` and `refs/`) makes the root a bare repository. */
const GIT_DISCOVERY_NAMES = ['HEAD'];

/** What one command's sandbox is made of: the policy, and the placeholders it holds until `release`. */
export interface SandboxPlan {
  policy: SandboxPolicy;
  /** Lets go of the placeholders for missing protected paths (once the command, or the session, has ended): settled once they are gone. */
  release: () => Promise<void>;
}

/**
 * The workspace as a sandboxed command sees it, worked out for every command (found again
 * whenever a directory changed since the last look: a rename moves what must be covered): the protected paths are read-only — those the
 * configuration names at the root always (a missing one held by a placeholder, see
 * `holdPlaceholders`), deeper ones wherever a bounded scan finds them, and the workspace paths their
 * repositories' configuration has git read or run (`gitReferencedPaths`) — and every path a deny rule
 * hides is hidden, or the command is refused when the workspace is too large to find them all.
 * Program directories outside the system's are readable.
 */
/** Linux's longest path (PATH_MAX, with its terminating zero). */
const PATH_MAX = 4096;

export class SandboxView {
  private scanned: { root: string; listed: ListedDirectories; found: { hidden: string[]; protectedBelow: string[] } } | undefined;
  /**
   * Every protected path below the root any look has found, kept while it exists: a command that
   * fills the workspace past the search's bound cannot push one found before out of the next look.
   */
  private readonly knownProtected = new Set<string>();

  /** The directory the workspace was when the tools were set up: another in its place is never mounted (see `workspaceProblem`). */
  private identity: DirectoryIdentity | undefined;

  constructor(
    private readonly workspace: WorkspacePolicy,
    private readonly settings: SandboxSettings,
  ) {
    // A workspace folder made after the tools were set up is recorded at the first command.
    this.identity = identityIfPresent(workspace.rootOf('private'));
  }

  /** The plan for one command run from `cwd` with the environment `env` (its PATH and HOME); `network` for this call. */
  plan(cwd: string, env: Record<string, string>, network: boolean): SandboxPlan {
    const root = this.workspace.rootOf('private');
    // Before anything is looked at or made below it (placeholders): a command of another tool set whose workspace
    // holds this one can rename it and put a link to elsewhere in its place.
    this.identity ??= identityIfPresent(root);
    const moved = workspaceProblem(root, this.identity);
    if (moved !== undefined)
      throw new CoreToolError(
        'sandbox_unavailable',
        `Shell commands cannot run: the workspace '${root}' ${moved}, so it is no longer the folder the tools were set up on; nothing ran. Put the folder back, or start the tools again on the workspace you mean.`,
      );
    const { hidden, protectedBelow } = this.scan(root);
    const { present, missing } = this.protectedAtRoot(root);
    const onTheWay = new LinksOnTheWay(root);
    // A remembered path stays only while it stands where it was found: a folder on its way swapped for a link would
    // lead its mount (and the folders on its way, bound onto themselves) to wherever the link points.
    for (const entry of protectedBelow) this.knownProtected.add(entry);
    const known = [...this.knownProtected].filter((entry) => {
      const stands = lstatOrUndefined(entry) !== undefined && onTheWay.first(entry) === undefined;
      if (!stands) this.knownProtected.delete(entry);
      return stands;
    });
    // Every path the sandbox mounts is mounted by name, and bubblewrap follows links on the way (from the host's root):
    // none may have one. The scan never follows links and others are paused while the plan is made and mounted, so
    // this holds unless the workspace changed between a look and its reuse.
    const linked = [...present, ...hidden].map((entry) => onTheWay.first(entry)).find((link) => link !== undefined);
    if (linked !== undefined) {
      this.scanned = undefined;
      throw new CoreToolError(
        'sandbox_unavailable',
        `Shell commands cannot run: '${path.relative(root, linked)}' became a symbolic link while the sandbox was planned (a path it covers lies beyond it); run the command again.`,
      );
    }
    // A protected path that another Toolwright process's placeholder stands for is held by this sandbox too (its
    // last holder removes it, which would take it from every sandbox that mounted it).
    // What the protected repositories' configuration has git read or run in the workspace (husky's hooks, an included file).
    // And the repository the workspace lies in, when it is a folder of a larger one: its hooks may run the workspace's
    // scripts at the user's next commit there (an independent review).
    const enclosing = enclosingRepository(root);
    const dotGits = [...present, ...known, ...(enclosing ? [enclosing] : [])].filter((entry) => path.basename(entry) === '.git');
    const referenced = gitReferencedPaths(root, dotGits, [...present, ...known, ...hidden], hidden);
    const requests = new Map([...missing, ...referenced.missing].map((request) => [request.path, request]));
    const held = holdPlaceholders([...requests.values()], [...present, ...known, ...referenced.present]);
    const readOnly = [...new Set([...present, ...referenced.present, ...held.placeholders, ...held.existing, ...known])];
    const policy: SandboxPolicy = {
      workspace: root,
      ...(this.identity ? { workspaceIdentity: this.identity } : {}),
      workspaceSpellings: this.workspace.spellingsOf('private'),
      readOnly,
      hidden,
      readable: readableDirectories(programDirectories(env.PATH ?? ''), this.settings.readablePaths ?? [], root),
      network,
      home: env.HOME ?? '/tmp/home',
      cwd,
      limits: { ...DEFAULT_LIMITS, ...definedOnly(this.settings.limits ?? {}) },
    };
    return { policy, release: () => held.release() };
  }

  /**
   * The hidden paths and the protected ones below the root: found again unless no directory the last
   * scan listed has changed since (`ListedDirectories`), so a rename is never missed and an
   * unchanged tree is not walked twice.
   */
  private scan(root: string): { hidden: string[]; protectedBelow: string[] } {
    if (this.scanned?.root === root && this.scanned.listed.unchanged()) return this.scanned.found;
    this.scanned = undefined;
    // Protected names at the root are looked at afresh for every command (their placeholders come and go); unless a rule hides them.
    const ignored = new Set(rootProtectedNames(this.workspace).filter((name) => !name.includes('/') && !this.workspace.denies(name)));
    const listed = new ListedDirectories(root, ignored);
    const record = (base: string) => (relative: string, stat: fs.BigIntStats) => listed.record(path.join(base, relative), stat);
    const found = { hidden: this.hiddenPaths(root, record), protectedBelow: this.protectedBelow(root, record(root)) };
    this.scanned = { root, listed, found };
    return found;
  }

  /** Every path a deny rule hides (the scan enters only where a rule may match), or a refusal when they cannot all be found. */
  private hiddenPaths(root: string, record: (base: string) => NonNullable<WalkOptions['onDirectory']>): string[] {
    const found = hiddenPathsUnder(this.workspace, root, hiddenScanEntries, record(root));
    if (!found.complete)
      throw new CoreToolError(
        'sandbox_unavailable',
        `Shell commands cannot run: to hide every path the deny rules (${this.workspace.deniedPatterns.join(', ')}) name, the sandbox must search more of the workspace than ${hiddenScanEntries} entries (or a part of it changed or could not be read). Remove what the workspace need not hold, or narrow the rules to the folders that hold such files (e.g. "secrets/**" rather than "**/*.key").`,
      );
    return found.paths.map((entry) => path.join(root, entry.path));
  }

  /**
   * The configured protected paths at their place under the root, and `HEAD` there (with it, git
   * would take the root itself for a repository and obey a `config` beside it): those there are
   * read-only — a `.git` file's `gitdir:` inside the workspace too — and each missing one is held by
   * a placeholder at its first missing folder (a missing `config/` is held whole for `config/deploy.json`).
   * A protected path that is a link refuses the command: a mount holds what a link leads to, not the
   * link, which a command could replace.
   */
  private protectedAtRoot(root: string): { present: string[]; missing: PlaceholderRequest[] } {
    const present: string[] = [];
    const missing: PlaceholderRequest[] = [];
    const onTheWay = new LinksOnTheWay(root);
    for (const relative of rootProtectedNames(this.workspace)) {
      const absolute = path.join(root, relative);
      // The protected path or a folder on its way (`config` of `config/deploy.json`): its mount, or its placeholder, would be made where the link leads.
      const link = onTheWay.first(absolute);
      if (link !== undefined) throw protectedLinkRefusal(root, absolute, link);
      const stat = isPlaceholder(absolute) ? undefined : lstatOrUndefined(absolute);
      if (stat) {
        present.push(absolute);
        if (relative === '.git' && stat.isFile()) present.push(...gitDirectoryOf(absolute, root));
        continue;
      }
      let first = absolute;
      while (path.dirname(first) !== root && !isPlaceholder(path.dirname(first)) && !lstatOrUndefined(path.dirname(first))) first = path.dirname(first);
      missing.push({ path: first, kind: first !== absolute || DIRECTORY_NAMES.has(path.basename(relative).toLowerCase()) ? 'directory' : 'file' });
    }
    return { present, missing };
  }

  /** Protected paths deeper in the workspace (`packages/app/.git`), breadth-first, the first `SCAN_ENTRIES` entries; each is covered whole. */
  private protectedBelow(root: string, onDirectory: NonNullable<WalkOptions['onDirectory']>): string[] {
    const found: string[] = [];
    const linked: string[] = [];
    const hides = this.workspace.hidingUnder(root);
    const result = walk(root, {
      gitignore: false,
      skipInternal: false,
      startIsReal: true,
      metadata: false,
      onDirectory,
      maxVisited: SCAN_ENTRIES,
      judge: (relative, kind) => {
        // A walk never enters what it left as a leaf, so each path's parents were looked at on the way down.
        if (hides?.(relative) !== undefined) return 'leaf';
        if (!this.workspace.protects(relative)) return kind === 'symlink' ? 'leaf' : undefined;
        // A protected name that is a link (`apps/web/.env -> ../../.env`) refuses the command, as at the root.
        if (kind === 'symlink') linked.push(path.join(root, relative));
        found.push(path.join(root, relative));
        // A denied path inside a protected one must still be found by `hiddenPaths`, which walks on its own.
        return 'leaf';
      },
    });
    // A name that is not UTF-8 cannot be given to bubblewrap (its arguments are text), so a protected path at or
    // below one cannot be covered: the command is refused, naming it, rather than run with a writable `.git`.
    if (result.unreadable) {
      // A folder deeper than the longest path the kernel takes cannot be opened by its name, nor mounted: a protected
      // path in it could not be kept read-only (a fourteenth pass made a `.git` 25 folders of 200 characters down).
      const tooDeep = result.unopened?.find((relative) => Buffer.byteLength(path.join(root, relative)) >= PATH_MAX);
      if (tooDeep !== undefined)
        throw new CoreToolError(
          'sandbox_unavailable',
          `Shell commands cannot run: the folder '${tooDeep.slice(0, 120)}…' lies deeper than the longest path the system can name (${PATH_MAX} bytes), so a protected path (a .git) in it could not be kept read-only. Move it up or remove it (rm -r works from a folder further down).`,
        );
      const behind = undecodableMatch(root, (relative) => this.workspace.protects(relative), SCAN_ENTRIES);
      if (behind.found !== undefined)
        throw new CoreToolError(
          'sandbox_unavailable',
          `Shell commands cannot run: the protected path '${behind.found}' lies at or below a name that is not UTF-8, which the sandbox cannot name to keep it read-only. Rename it (the \\x bytes) or remove it.`,
        );
    }
    if (linked.length > 0) throw protectedLinkRefusal(root, linked[0]!, linked[0]!);
    // A nested repository whose `.git` is a file keeps its configuration and hooks where the file says.
    for (const entry of [...found]) if (path.basename(entry) === '.git' && lstatOrUndefined(entry)?.isFile()) found.push(...gitDirectoryOf(entry, root));
    return found;
  }
}

/**
 * The refusal for a protected path that is a symbolic link, or has one on its way (`link`): a mount holds what
 * a link leads to, not the link, which a command inside the sandbox could replace.
 */
/** The `.git` of the repository a folder lies in above `root` (the nearest, as git finds it), if any. */
function enclosingRepository(root: string): string | undefined {
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    if (lstatOrUndefined(dotGit) !== undefined) return dotGit;
    if (dir === path.dirname(dir)) return undefined;
  }
}

function protectedLinkRefusal(root: string, entry: string, link: string): CoreToolError {
  const relative = path.relative(root, entry);
  return new CoreToolError(
    'sandbox_unavailable',
    `Shell commands cannot run: ${link === entry ? `the protected path '${relative}' is` : `'${path.relative(root, link)}', on the way to the protected path '${relative}', is`} a symbolic link, which a command inside the sandbox could replace (a mount keeps what a link leads to read-only, not the link). Put the file or folder it leads to in its place, or leave it out of protectedPaths.`,
  );
}

/**
 * The directories to make readable, canonical (a mount through a link fails), each checked
 * (`readableProblem`: never a home, the workspace or the sandbox's own places: a program directory
 * that is one is left out, a configured one refuses the command), without those inside another.
 */
function readableDirectories(programs: readonly string[], configured: readonly string[], workspace: string): string[] {
  const canonical: string[] = [];
  for (const candidate of [...programs, ...configured]) {
    let real: string;
    try {
      real = fs.realpathSync(path.resolve(candidate));
    } catch {
      continue; // gone: nothing to show
    }
    const problem = readableProblem(real, workspace);
    if (problem && configured.includes(candidate))
      throw new CoreToolError('sandbox_unavailable', `Shell commands cannot run: the readable path '${candidate}' cannot be shown in the sandbox: ${problem}.`);
    if (!problem) canonical.push(real);
  }
  return [...new Set(canonical)].filter((dir) => !canonical.some((other) => other !== dir && isWithin(other, dir)));
}

/** Paths under the root kept read-only there whatever the scans find: the configured protected entries, and `HEAD`. */
function rootProtectedNames(workspace: WorkspacePolicy): string[] {
  const names = workspace.protectedEntries.map((entry) => entry.replace(/^\/+|\/+$/g, '')).filter((entry) => entry !== '' && !entry.split('/').includes('..'));
  return [...new Set([...names, ...GIT_DISCOVERY_NAMES])];
}

/**
 * Where a `.git` file (`gitdir: <path>`, a worktree's, a `.bare` layout's, `--separate-git-dir`'s) says the
 * repository is — and the main repository a worktree's `commondir` names — when that is in the workspace: its
 * configuration and hooks are what git obeys there, so they are covered as the `.git` is. A link inside the workspace
 * on the way refuses the command (a command could point it elsewhere). Nested ones too: a fourteenth pass had a
 * `projects/foo/.git` file point at `.bare`, whose hooks stayed writable and ran at the user's next commit.
 */
function gitDirectoryOf(gitFile: string, root: string): string[] {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(readPlainFile(gitFile, 4096) ?? '');
  if (!match) return [];
  const inside = (spelled: string): string[] => {
    const physical = physicalPath(spelled, root);
    if (physical.link !== undefined) throw protectedLinkRefusal(root, spelled, physical.link);
    return physical.path !== root && isWithin(root, physical.path) && lstatOrUndefined(physical.path) ? [physical.path] : [];
  };
  const gitDir = spelledFrom(path.dirname(gitFile), match[1]!);
  const found = inside(gitDir);
  const common = (readPlainFile(path.join(gitDir, 'commondir'), 4096) ?? '').trim();
  if (common !== '') found.push(...inside(spelledFrom(gitDir, common)));
  return found;
}

/** The capability a call must hold for network access, where capabilities are granted explicitly. */
export const NETWORK_CAPABILITY = 'net.connect';

/**
 * Whether a call may use the network: the shell allows it (`network`) and the call holds
 * `net.connect` — or no capabilities were granted explicitly (then everything is).
 */
export function networkFor(settings: SandboxSettings, granted: readonly string[] | undefined): boolean {
  if (settings.network !== true) return false;
  return granted === undefined || grantsNetwork(granted);
}

/**
 * Whether explicit grants cover the network: `*`, `net.*` or `net.connect` — or, for a connection to one of `hosts`
 * only, `net.connect:<host>` (the shell, subprocess and HTTP tools, WebAssembly modules' requests all judge by this).
 */
export function grantsNetwork(granted: readonly string[], hosts: readonly string[] = []): boolean {
  const named = hosts.map((host) => `${NETWORK_CAPABILITY}:${host}`);
  return granted.some(
    (grant) =>
      grant === '*' || grant === NETWORK_CAPABILITY || named.includes(grant) || (grant.endsWith('.*') && NETWORK_CAPABILITY.startsWith(grant.slice(0, -1))),
  );
}

/** What a program in `<prefix>/bin` may read of its prefix. */
const PROGRAM_LIBRARIES = ['lib', 'lib64', 'libexec'];

/**
 * PATH directories a command needs beyond the system's (a toolchain in `/opt/node/bin` is readable,
 * with `lib`, `lib64` and `libexec` beside it, not the rest of `/opt/node`). Whether each may be shown at all (never a
 * home — `~/.cargo/bin` stays out of sight —, the workspace or the sandbox's own places) is `readableProblem`'s to say.
 */

export function programDirectories(pathVariable: string): string[] {
  const dirs = new Set<string>();
  for (const entry of pathVariable.split(':')) {
    if (!path.isAbsolute(entry)) continue;
    const dir = path.resolve(entry);
    if (['/usr', '/bin', '/sbin', '/lib', '/lib64'].some((system) => isWithin(system, dir))) continue;
    const base = path.basename(dir);
    const parent = path.dirname(dir);
    dirs.add(dir);
    // A toolchain's programs find their libraries beside them (`/opt/node/bin/npm` -> `../lib/node_modules`); the rest
    // of its prefix stays out of sight (a twelfth pass read a marker in `/opt/x` through `/opt/x/bin` on PATH).
    if ((base === 'bin' || base === 'sbin') && parent !== '/') for (const beside of PROGRAM_LIBRARIES) dirs.add(path.join(parent, beside));
  }
  return [...dirs];
}

/** `value` without its undefined members (a setting left out keeps the default). */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The directory's identity, or undefined where there is none (yet). */
export function identityIfPresent(dir: string): DirectoryIdentity | undefined {
  try {
    return identityOf(dir);
  } catch {
    return undefined;
  }
}
