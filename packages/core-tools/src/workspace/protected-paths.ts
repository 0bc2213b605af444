/**
 * Matches workspace-relative paths (`/`-separated) against protected entries, gitignore-style:
 * an entry without an inner or leading `/` (`.git`, `.env`) names a path segment at any depth, since
 * a nested repository's `sub/.git/hooks/x` is obeyed by git run in `sub`; an entry with one
 * (`/build`, `config/secrets`) is anchored at the scope root. Case is ignored, as case-insensitive
 * file systems (macOS, Windows) would open `.GIT/config` as `.git/config`.
 * @example protectedPathMatcher(['.git', 'config/keys'])('a/b/.git/config') // true
 */
export function protectedPathMatcher(entries: readonly string[]): (relative: string) => boolean {
  const anchored: string[] = [];
  const names = new Set<string>();
  for (const entry of entries) {
    const trimmed = entry.replace(/\/+$/, '').toLowerCase();
    if (trimmed === '' || trimmed === '/') continue;
    if (trimmed.includes('/')) anchored.push(trimmed.replace(/^\/+/, ''));
    else names.add(trimmed);
  }
  return (relative) => {
    if (relative === '') return false;
    const folded = relative.toLowerCase();
    if (anchored.some((p) => folded === p || folded.startsWith(`${p}/`))) return true;
    return names.size > 0 && folded.split('/').some((segment) => names.has(segment));
  };
}
