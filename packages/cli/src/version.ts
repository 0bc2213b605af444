import fs from 'node:fs';
import path from 'node:path';

/** This CLI's version, as its package.json says (the file ships with the package, beside `dist/` and `src/`). */
export function cliVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}
