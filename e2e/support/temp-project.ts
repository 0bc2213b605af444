import fs from 'node:fs';
import path from 'node:path';

/**
 * Copies an e2e project into a fresh folder inside e2e/ (so `@toolwright/*` still resolve from the
 * repository's node_modules) and returns its path; remove it with `fs.rmSync(dir, { recursive: true })`.
 */
export function copyProject(name: string, label: string): string {
  const target = path.join(__dirname, '..', `.tmp-${label}-${process.pid}`);
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(path.join(__dirname, '..', name), target, {
    recursive: true,
    filter: (source) => !/[\\/](dist|node_modules)$/.test(source) && !source.endsWith('.tsbuildinfo'),
  });
  return target;
}
