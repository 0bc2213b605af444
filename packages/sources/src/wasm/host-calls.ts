import { readConfined, WorkspaceError, WorkspacePolicy, writeFileAtomic } from '@toolwright/core-tools';
import type { SafetyTier } from '@toolwright/schema';
import type { WorkspaceRules } from '@toolwright/tool';
import { hostHttpGet, type NetworkGrant } from './host-network.js';
import { HostStatus, type HostReply, type HostRequest } from './host-status.js';

/** A request the module was refused, kept to report if it then fails: `code` is the call's error code then. */
export interface Refusal {
  code: 'access_denied' | 'address_refused';
  reason: string;
}

export interface HostGrant {
  /** The workspace the call is confined to; without one every file request is refused. */
  workspace: string | undefined;
  /** What the workspace keeps from tools (its protected and hidden paths, as the CLI sets them for the core tools). */
  rules?: WorkspaceRules | undefined;
  /** A read-only tool may read; side-effecting and privileged tools may also write. */
  tier: SafetyTier;
  /** Largest file read: what the module's memory could hold. */
  maxReadBytes: number;
  /** What `http_get` may reach. */
  network: NetworkGrant;
}

const MAX_KEPT_REFUSALS = 5;

/**
 * The capabilities a module gets, mediated on the main thread: files inside the call's workspace, judged
 * by the workspace policy the core tools use (relative to its root, `..` and absolute paths out refused,
 * links resolved and refused when they lead out, protected paths not written) and opened without
 * following a link that was not checked; and GETs through the SSRF-safe request (`hostHttpGet`), answered
 * asynchronously. Refusals are kept, to report if the module then fails.
 */
export class HostCalls {
  readonly refusals: Refusal[] = [];
  private policy: WorkspacePolicy | undefined;

  constructor(private readonly grant: HostGrant) {}

  handle(request: HostRequest): HostReply | Promise<HostReply> {
    if (request.op === 'get') return hostHttpGet(request.url, this.grant.network, (reason) => this.refuse(reason, 'address_refused'));
    const { workspace, tier, maxReadBytes } = this.grant;
    const what = `${request.op} '${request.path}'`;
    if (workspace === undefined) return this.refuse(`${what}: the call has no workspace, so the module may not use files`);
    if (request.op === 'write' && tier === 'read-only') return this.refuse(`${what}: the tool is read-only, so the module may read files but not write them`);
    try {
      this.policy ??= new WorkspacePolicy({
        root: workspace,
        ...(this.grant.rules?.protectedPaths ? { protectedPaths: this.grant.rules.protectedPaths } : {}),
        ...(this.grant.rules?.deniedPaths ? { deniedPaths: this.grant.rules.deniedPaths } : {}),
      });
      if (request.op === 'read') {
        const resolved = this.policy.resolve(request.path, { mustExist: true, kind: 'file' });
        const data = readConfined(
          resolved,
          maxReadBytes,
          (size) => `'${request.path}' has ${size} bytes, more than the module's memory cap of ${maxReadBytes}`,
        );
        return { code: HostStatus.ok, data };
      }
      const resolved = this.policy.resolve(request.path, { kind: 'file' });
      if (resolved.protected) return this.refuse(`${what}: the path is protected (such as .git or .env), and a module may not write it`);
      writeFileAtomic(resolved, Buffer.from(request.data ?? new Uint8Array()));
      return { code: HostStatus.ok };
    } catch (error) {
      return this.failed(what, error);
    }
  }

  private refuse(reason: string, code: Refusal['code'] = 'access_denied'): HostReply {
    // A module refused in a loop must not grow this list without bound: the first few say enough.
    if (this.refusals.length < MAX_KEPT_REFUSALS) this.refusals.push({ code, reason });
    return { code: HostStatus.denied };
  }

  private failed(what: string, error: unknown): HostReply {
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof WorkspaceError)) return { code: HostStatus.failed };
    switch (error.code) {
      case 'outside_workspace':
      case 'symlink_escape':
      case 'path_denied':
      case 'protected_path':
      case 'workspace_root':
      case 'changed_during_use':
      case 'permission_denied':
        return this.refuse(`${what}: ${message}`);
      case 'not_found':
        return { code: HostStatus.notFound };
      case 'too_large':
        return { code: HostStatus.tooLarge };
      case 'invalid_path':
      case 'unknown_scope':
        return { code: HostStatus.invalid };
      default:
        return { code: HostStatus.failed };
    }
  }
}
