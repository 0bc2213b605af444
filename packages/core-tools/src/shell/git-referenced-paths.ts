import fs from 'node:fs';
import path from 'node:path';
import { isPlaceholder, type PlaceholderRequest } from '@toolwright/sandbox';
import { CoreToolError } from '../core-tool-error.js';
import { isWithin } from '../workspace/workspace-policy.js';
import { gitConfigReferences, type GitConfigReference } from './git-config-references.js';
import { readPlainFile } from '../workspace/plain-file.js';
import { LinksOnTheWay, lstatOrUndefined } from './links-on-the-way.js';

/**
 * The workspace paths the protected repositories' configuration has git read or run (`gitConfigReferences`:
 * a `core.hooksPath` such as husky's `.husky`, an `include.path`, a `core.fsmonitor` or filter script), kept
 * read-only like the protected paths: `.git/config` is, but the host's next `git status` or `git commit` would
 * run what a command wrote there. Those already covered (`covered`: inside `.git`, hidden) are left out; a
 * missing one is held by a placeholder at its first missing folder, as a missing protected path is; one that
 * is a symbolic link, or has one on its way, refuses the command (a mount would keep what it leads to, not
 * the link), as a protected path does. `dotGits` are the `.git` entries the sandbox protects.
 */
export function gitReferencedPaths(
  root: string,
  dotGits: readonly string[],
  covered: readonly string[],
  hidden: readonly string[] = [],
): { present: string[]; missing: PlaceholderRequest[] } {
  const present = new Set<string>();
  const missing = new Map<string, PlaceholderRequest>();
  const onTheWay = new LinksOnTheWay(root);
  for (const dotGit of dotGits) {
    // What a configuration has read here (included files, hooks' texts) is never a hidden path's, and for a repository a
    // command may have made (any below the root: the root's is read-only in every sandbox, and one the workspace lies
    // in is outside it) never outside the workspace:
    // what is read comes back as placeholders a command sees (`gitConfigReferences`).
    const userMade = dotGit === path.join(root, '.git') || !isWithin(root, dotGit);
    const mayRead = (file: string) => !hidden.some((dir) => isWithin(dir, file)) && (userMade || isWithin(root, file));
    const references = gitConfigReferences(dotGit, mayRead, (file) => isWithin(root, file));
    if (dotGit === path.join(root, '.git')) references.push(...submoduleRepositories(root));
    for (const reference of references) {
      // Where git will open it: a spelling through a link outside the workspace (`/tmp/ws-link/hooks`) names the
      // workspace's folder all the same (a thirteenth pass ran a hook planted that way).
      const physical = physicalPath(reference.path, root);
      if (physical.link !== undefined && physical.link !== path.normalize(reference.path))
        throw new CoreToolError(
          'sandbox_unavailable',
          `Shell commands cannot run: '${path.relative(root, physical.link)}', a symbolic link in the workspace, is on the way to '${reference.path}', which the repository configuration (${reference.setting}) has git read or run: a command inside the sandbox could replace the link. Put what it leads to in its place, or change the setting.`,
        );
      const entry = physical.path;
      if (!isWithin(root, entry) || covered.some((dir) => isWithin(dir, entry))) continue;
      const relative = path.relative(root, entry);
      // The root as the folder a hook's `cd` goes to (a repository the workspace lies in, `cd app && npm test`) holds
      // nothing of its own: what runs there is found by its own words. As the hooks or templates folder it is refused.
      if (relative === '' && !/^(?:core\.hookspath|init\.templatedir) /.test(reference.setting)) continue;
      if (relative === '')
        throw new CoreToolError(
          'sandbox_unavailable',
          `Shell commands cannot run: the repository configuration (${reference.setting}) names the workspace root itself as what git reads or runs, which commands must be able to change. Point it to a folder inside the workspace.`,
        );
      const link = onTheWay.first(entry);
      if (link !== undefined)
        throw new CoreToolError(
          'sandbox_unavailable',
          `Shell commands cannot run: ${link === entry ? `'${relative}' is` : `'${path.relative(root, link)}', on the way to '${relative}', is`} a symbolic link, and the repository configuration (${reference.setting}) has git read or run '${relative}': a command inside the sandbox could replace the link (a mount keeps what a link leads to read-only, not the link). Put the file or folder it leads to in its place, or change the setting.`,
        );
      if (!isPlaceholder(entry) && lstatOrUndefined(entry) !== undefined) {
        present.add(entry);
        continue;
      }
      // Held at its first missing folder; a folder that is a placeholder already (an earlier command's) counts as missing:
      // held by this launch too, it is not let go of while this one's placeholder inside it is there (it would stay
      // behind, no longer empty when its turn came, and be the user's from then on).
      let first = entry;
      while (path.dirname(first) !== root && (isPlaceholder(path.dirname(first)) || !lstatOrUndefined(path.dirname(first)))) first = path.dirname(first);
      missing.set(first, { path: first, kind: first !== entry ? 'directory' : reference.kind });
    }
  }
  return { present: [...present], missing: [...missing.values()] };
}

/** Largest `.gitmodules` read for its submodules' paths. */
const MAX_GITMODULES_BYTES = 256 * 1024;

/**
 * The `.git` of each submodule the root's `.gitmodules` names: the user's `git status` in the root runs git in every
 * submodule's work tree, which obeys that repository's own configuration — so a command must not make one where a
 * submodule is not checked out (the third review had a command `git init` an uninitialised submodule's folder with a
 * `core.fsmonitor`, which the user's next `git status` ran). Held like any reference: read-only when there, a
 * placeholder at its first missing folder when not.
 */
function submoduleRepositories(root: string): GitConfigReference[] {
  const text = readPlainFile(path.join(root, '.gitmodules'), MAX_GITMODULES_BYTES);
  if (text === undefined) return [];
  const found: GitConfigReference[] = [];
  for (const match of text.matchAll(/^\s*path\s*=\s*"?([^"\n]*?)"?\s*$/gm)) {
    const relative = match[1]!;
    if (relative === '' || path.isAbsolute(relative) || relative.split('/').includes('..')) continue;
    found.push({ path: path.join(root, relative, '.git'), kind: 'directory', setting: `the submodule ${relative} in .gitmodules` });
  }
  return found;
}

/**
 * `spelled` (absolute) as the kernel will resolve it when git opens it: each link on the way replaced by what it
 * leads to, `..` taken from where a link led, the missing rest kept as spelled. Stops at the first link inside the
 * workspace (`link`): a command can replace that one, so what it leads to now says nothing of later.
 */
export function physicalPath(spelled: string, root: string): { path: string; link?: string } {
  const parts = spelled.split('/').filter((part) => part !== '');
  let current = '/';
  for (let hops = 0; parts.length > 0;) {
    const part = parts.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    const stat = lstatOrUndefined(next);
    if (stat === undefined) return { path: path.join(next, ...parts) };
    if (!stat.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (isWithin(root, next)) return { path: next, link: next };
    if (++hops > 40) return { path: spelled }; // ELOOP: git cannot open it either
    let target: string;
    try {
      target = fs.readlinkSync(next);
    } catch {
      return { path: path.join(next, ...parts) };
    }
    parts.unshift(...target.split('/').filter((piece) => piece !== ''));
    if (target.startsWith('/')) current = '/';
  }
  return { path: current };
}
