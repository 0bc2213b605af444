import { getToolContext } from '@toolwright/tool';
import { spellingOf } from './path-resolvers.js';
import { renderName } from './model-text/render-name.js';
import { WorkspaceError } from './workspace/workspace-error.js';
import type { ResolvedPath } from './workspace/workspace-policy.js';

/**
 * Refuses to use a path unless it is the file the executor's safety gate judged. The gate resolved the
 * argument (for the policy's path rules and the risk hook's protected paths); the tool resolves it
 * again when it uses it, and a link flipped in between (`l1/../../X` while `l1` is re-pointed) would
 * make the two differ. `resolved` is what the tool acts on — the confined writers, readers and deleters
 * then reach exactly `resolved.absolute` through descriptors, refusing any later swap — so checking it
 * here is checking the file really touched: its spelling must be one the policy's rules saw, and a
 * protected path must be one the call's approval named. Refused as `changed_during_use`; outside an
 * executor (no judgement) nothing is checked.
 * @param argument The path parameter `resolved` came from (`path`); undefined when the call has none (vault_copyto).
 */
export function useAsJudged(resolved: ResolvedPath, argument: string | undefined, shown: string): ResolvedPath {
  const judged = getToolContext()?.judgedPaths;
  if (!judged) return resolved;
  const spelling = spellingOf(resolved);
  const seen = argument === undefined ? undefined : judged.resolved[argument];
  if (seen !== undefined && !seen.includes(spelling)) {
    throw changedSinceJudged(shown, `it now leads to ${renderName(spelling)}, which the policy did not judge`);
  }
  if (judged.protectedPaths !== undefined && resolved.protected && !judged.protectedPaths.includes(spelling)) {
    throw changedSinceJudged(shown, `it now leads to the protected path ${renderName(spelling)}, which the approval did not cover`);
  }
  return resolved;
}

function changedSinceJudged(shown: string, why: string): WorkspaceError {
  return new WorkspaceError(
    'changed_during_use',
    `'${shown}' changed between the policy check and its use (${why}); it was refused and nothing was touched. Try again.`,
    shown,
  );
}
