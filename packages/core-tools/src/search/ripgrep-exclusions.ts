import type { WorkspacePolicy } from '../workspace/workspace-policy.js';

/**
 * The workspace's hidden-path patterns as ripgrep `--iglob` exclusions for a search of the canonical
 * directory `dir`, so ripgrep never opens what a deny rule hides: anchored at the searched directory
 * (`!/secrets/**`, as picomatch anchors them at the root), case ignored like the workspace's own
 * matching. A pattern that cannot be re-rooted under `dir` exactly (one that starts with a wildcard
 * other than `**` and does not lie under `dir` by its literal start, or a negated one) is left out:
 * this only saves work, since what ripgrep reports is dropped when the workspace hides it.
 * @example ripgrepExclusions(workspace, `${root}/config`) // hiding `config/*.pem`: ['--iglob', '!/*.pem']
 */
export function ripgrepExclusions(workspace: WorkspacePolicy, dir: string): string[] {
  const root = workspace.rootOf('private');
  if (workspace.deniedPatterns.length === 0 || (dir !== root && !dir.startsWith(`${root}/`))) return [];
  const under = dir === root ? '' : `${dir.slice(root.length + 1).toLowerCase()}/`;
  const globs: string[] = [];
  for (const pattern of workspace.deniedPatterns) {
    if (pattern.startsWith('!')) continue;
    if (pattern.startsWith('**/')) globs.push(`!/${pattern}`);
    else if (under === '') globs.push(`!/${pattern}`);
    else if (pattern.toLowerCase().startsWith(under) && !/[*?[\]{}()!+@\\]/.test(under)) globs.push(`!/${pattern.slice(under.length)}`);
  }
  return globs.flatMap((glob) => ['--iglob', glob]);
}
