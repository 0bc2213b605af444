import type { CoreToolsEnvironment } from './environment.js';
import { pathsUnder, treeAt } from './workspace/tree-scan.js';
import type { ResolvedPath } from './workspace/workspace-policy.js';
import { WorkspaceError } from './workspace/workspace-error.js';

/** How a tool host spells a path argument for policy rules (the shape of the executor's `PathResolver`). */
export type CorePathResolver = (argument: string, value: string, args: Readonly<Record<string, unknown>>) => string[] | undefined;

/** The core tools whose path arguments are workspace paths. */
const PATH_TOOLS = ['file_read', 'file_list', 'file_search', 'glob', 'file_write', 'file_edit', 'file_delete'] as const;

/**
 * Per core tool, for the executor's `pathResolvers` option: a path argument as the workspace resolves
 * it — canonical, relative to its scope root, `shared:/` or `public:/` before other scopes — both the
 * path itself (what a delete removes) and where it leads through links (what a read or write reaches).
 * `private:/.env`, `/abs/ws/.env`, `./.env`, `sub/../.env` and a link to `.env` all resolve to `.env`,
 * so a policy rule `file_read(.env)` holds however the model spells the path. A recursive delete
 * also names every path in the tree it removes (bounded; a tree too large to list is flagged by the
 * risk hook instead), so `file_delete(sub/keep.txt)` denies deleting `sub`. A path the workspace
 * refuses resolves to nothing: the call goes on to the tool, which reports why.
 */
export function coreToolsPathResolvers(env: CoreToolsEnvironment): Record<string, CorePathResolver> {
  const resolve = (value: string, wholeTree: boolean): string[] | undefined => {
    const spellings = new Set<string>();
    // Hidden paths are spelled too: a deny rule naming them must match (the tool then refuses them).
    for (const attempt of [() => env.workspace.resolveLink(value, { allowDenied: true }), () => env.workspace.resolve(value, { allowDenied: true })]) {
      try {
        spellings.add(spellingOf(attempt()));
      } catch (error) {
        if (!(error instanceof WorkspaceError)) throw error;
      }
    }
    const tree = wholeTree ? treeAt(env.workspace, value) : undefined;
    if (tree) for (const relative of pathsUnder(tree).paths) spellings.add(spellingOf({ ...tree, relative }));
    return spellings.size > 0 ? [...spellings] : undefined;
  };
  const resolvers: Record<string, CorePathResolver> = Object.fromEntries(
    PATH_TOOLS.map((name) => [name, (_argument: string, value: string) => resolve(value, false)]),
  );
  resolvers.file_delete = (_argument, value, args) => resolve(value, args.recursive === true);
  return resolvers;
}

/** `src/a.ts` in the private scope (its root is `.`), `public:/site/index.html` in another. */
export function spellingOf(resolved: ResolvedPath): string {
  const relative = resolved.relative === '' ? '.' : resolved.relative;
  return resolved.scope === 'private' ? relative : `${resolved.scope}:/${relative}`;
}
