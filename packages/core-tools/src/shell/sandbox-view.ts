import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AbsentPaths, DEFAULT_LIMITS, type ResourceLimits, type SandboxPolicy } from '@toolwright/sandbox';
import type { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { isWithin } from '../workspace/workspace-policy.js';
import { walk } from '../workspace/walk.js';

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

/** Entries looked at when searching the workspace for protected and denied paths to cover. */
const SCAN_ENTRIES = 5_000;
/** How long a scan's findings are reused (commands in quick succession do not rescan). */
const SCAN_TTL_MS = 5_000;

/**
 * The workspace as a sandboxed command sees it: which paths are read-only (protected: `.git`,
 * `.toolwright`, `.env`, configured ones), which are hidden (paths a policy denies), which protected
 * names are missing and so must be removed if a command creates them, and which program directories
 * outside the system's are readable.
 */
export class SandboxView {
  private scanned: { at: number; found: { readOnly: string[]; hidden: string[] } } | undefined;

  constructor(
    private readonly workspace: WorkspacePolicy,
    private readonly settings: SandboxSettings,
  ) {}

  /** The policy for one command run from `cwd` with the environment `env` (its PATH and HOME); `network` for this call. */
  policy(cwd: string, env: Record<string, string>, network: boolean): SandboxPolicy {
    const root = this.workspace.rootOf('private');
    const { readOnly, hidden } = this.scan(root);
    return {
      workspace: root,
      readOnly,
      hidden,
      readable: [...programDirectories(env.PATH ?? '', root), ...(this.settings.readablePaths ?? []).map((p) => path.resolve(p))],
      network,
      home: env.HOME ?? '/tmp/home',
      cwd,
      limits: { ...DEFAULT_LIMITS, ...definedOnly(this.settings.limits ?? {}) },
    };
  }

  /** The protected names missing at the workspace root now (each removed if a command creates it). */
  absentProtected(): AbsentPaths {
    const root = this.workspace.rootOf('private');
    const names = this.workspace.protectedEntries.map((entry) => entry.replace(/^\/+|\/+$/g, '')).filter((entry) => entry !== '');
    return new AbsentPaths(names.map((entry) => path.join(root, entry)));
  }

  /**
   * Protected and denied paths in the workspace, through the one tree walker: breadth-first (the
   * shallow ones first), without following links, bounded by `SCAN_ENTRIES`; each found path is
   * covered whole, not entered.
   */
  private scan(root: string): { readOnly: string[]; hidden: string[] } {
    const now = Date.now();
    if (this.scanned && now - this.scanned.at < SCAN_TTL_MS) return this.scanned.found;
    const found = { readOnly: [] as string[], hidden: [] as string[] };
    walk(root, {
      gitignore: false,
      skipInternal: false,
      startIsReal: true,
      limit: SCAN_ENTRIES,
      judge: (relative, kind) => {
        if (kind === 'symlink') return 'leaf';
        if (this.workspace.denies(relative)) {
          found.hidden.push(path.join(root, relative));
          return 'hide';
        }
        if (this.workspace.protects(relative)) {
          found.readOnly.push(path.join(root, relative));
          return 'leaf';
        }
        return undefined;
      },
    });
    this.scanned = { at: now, found };
    return found;
  }
}

/** The capability a call must hold for network access, where capabilities are granted explicitly. */
export const NETWORK_CAPABILITY = 'net.connect';

/**
 * Whether a call may use the network: the shell allows it (`network`) and the call holds
 * `net.connect` — or no capabilities were granted explicitly (then everything is).
 */
export function networkFor(settings: SandboxSettings, granted: readonly string[] | undefined): boolean {
  if (settings.network !== true) return false;
  if (granted === undefined) return true;
  return granted.some((grant) => grant === '*' || grant === NETWORK_CAPABILITY || (grant.endsWith('.*') && NETWORK_CAPABILITY.startsWith(grant.slice(0, -1))));
}

/**
 * PATH directories a command needs beyond the system's: each outside the system directories, the
 * workspace and every home (a toolchain in `/opt/node/bin` is readable, with its `lib` beside it —
 * `/opt/node`; `~/.cargo/bin` is not: the home stays out of sight).
 */
export function programDirectories(pathVariable: string, workspace: string): string[] {
  const homes = [os.homedir(), '/root', '/home'].filter((h) => h !== '' && h !== '/');
  const dirs = new Set<string>();
  for (const entry of pathVariable.split(':')) {
    if (!path.isAbsolute(entry)) continue;
    const dir = path.resolve(entry);
    if (['/usr', '/bin', '/sbin', '/lib', '/lib64'].some((system) => dir === system || isWithin(system, dir))) continue;
    if (dir === workspace || isWithin(workspace, dir) || isWithin(dir, workspace)) continue;
    if (homes.some((home) => dir === home || isWithin(home, dir) || isWithin(dir, home))) continue;
    const base = path.basename(dir);
    const parent = path.dirname(dir);
    dirs.add((base === 'bin' || base === 'sbin') && parent !== '/' ? parent : dir);
  }
  return [...dirs].filter((dir) => !isWithin(dir, workspace) && fs.existsSync(dir));
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
