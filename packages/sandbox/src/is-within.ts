import path from 'node:path';

/**
 * Whether `target` equals `root` or lies below it, compared segment by segment: `..test` and `...`
 * are ordinary names below the root, while `..` (as a whole first segment) climbs out of it.
 * @example isWithin('/ws', '/ws/..git') // true
 */
export function isWithin(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!path.isAbsolute(relative) && relative.split(path.sep)[0] !== '..');
}
