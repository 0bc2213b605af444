import path from 'node:path';

/** The deepest folder holding every file (tsc's default rootDir). */
export function commonRoot(files: readonly string[]): string {
  if (files.length === 0) return process.cwd();
  let root = path.dirname(files[0]!);
  for (const file of files) while (!file.startsWith(`${root}${path.sep}`) && root !== path.dirname(root)) root = path.dirname(root);
  return root;
}
