import { endSandboxesCovering } from '@toolwright/sandbox';
import { WorkspaceError } from './workspace-error.js';
import type { ResolvedPath } from './workspace-policy.js';

/**
 * Called just before a host tool replaces or removes `resolved` (a write or delete a person approved under a
 * protected path, say): every running sandbox of this process that holds it read-only or hidden, or holds
 * something below it, is ended first, so none of its commands sees the new file as plain workspace content (a
 * protected file writable, a denied one readable). The kernel's watch on covered paths only reacts afterwards.
 * Refused as `busy` when such a sandbox cannot be ended (no control groups on this machine, or a process that would
 * not die within five seconds): the change waits until the command has ended.
 */
export function endCoveringSandboxes(resolved: ResolvedPath): void {
  if (endSandboxesCovering(resolved.absolute)) return;
  throw new WorkspaceError(
    'busy',
    `'${resolved.relative}' is covered by the sandbox of a shell command still running, which could not be ended; nothing was changed. Stop that command (or let it end) and try again.`,
    resolved.relative,
  );
}
