import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTypeScript7, type TypeScript7 } from '../src/front-end/typescript-7/typescript-7-api.js';

const REPOSITORY = path.resolve(__dirname, '../../..');

/**
 * The TypeScript 7 installations the front end is tested against (`tools/typescript-7/<minor>`, put
 * there by `node tools/typescript-7/install.mjs`, which `npm test` runs first), by minor line.
 * CI must have them all; elsewhere a missing one is skipped, said so by the caller.
 */
export function typeScript7Installs(): { line: string; dir: string }[] {
  const root = path.join(REPOSITORY, 'tools/typescript-7');
  return fs
    .readdirSync(root)
    .filter((name) => /^7\.\d+$/.test(name))
    .sort()
    .map((line) => ({ line, dir: path.join(root, line, 'node_modules/typescript') }));
}

const loaded = new Map<string, Promise<TypeScript7>>();

export function typeScript7(dir: string): Promise<TypeScript7> {
  let found = loaded.get(dir);
  if (!found) loaded.set(dir, (found = loadTypeScript7(dir)));
  return found;
}

/**
 * A tsconfig (in a temporary folder) for fixtures' files, with the options of `FIXTURE_OPTIONS`: TypeScript 7 opens
 * projects by their config file.
 */
export function fixturesTsconfig(files: readonly string[]): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-ts7-fixture-'));
  return writeTsconfig(path.join(folder, 'tsconfig.json'), files);
}

/**
 * Writes a tsconfig at `file` for `files` with the fixtures' options (types from the repository's @types), and returns its
 * path. `@toolwright/*` resolve as in a user's project, to the packages' built declarations (`npm run build` first): the
 * compiler then counts them as an external library, and the analysis never asks for their syntax trees — with the
 * sources (the `@toolwright/source` condition) every fixture's project sent the tool and schema packages' trees anew.
 */
export function writeTsconfig(file: string, files: readonly string[]): string {
  const missing = ['tool', 'schema', 'sources'].filter((name) => !fs.existsSync(path.join(REPOSITORY, 'packages', name, 'dist', 'index.d.ts')));
  if (missing.length > 0)
    throw new Error(`TypeScript 7's test projects read the packages' built declarations, and ${missing.join(', ')} has none: run npm run build first`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
        typeRoots: [path.join(REPOSITORY, 'node_modules/@types')],
      },
      files,
    }),
  );
  return file;
}
