import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CliError } from './cli-error.js';

/** Which TypeScript reads a project: 6 through its compiler API (in this process), or 7 through its own API (the native compiler). */
export interface ProjectTypeScript {
  major: 6 | 7;
  version: string;
  /** The `typescript` package folder the project resolves (undefined: none, TypeScript 6 is the CLI's own). */
  packageDir?: string;
}

/**
 * The TypeScript a project compiles with: the `typescript` its folder resolves (as `tsc` would be
 * found), or the one `--typescript` names. TypeScript 7 (`npm i -D typescript` since July 2026) is
 * read through its own API; 6 through the compiler API this CLI loads.
 */
export function projectTypeScript(projectDir: string, requested?: string): ProjectTypeScript {
  if (requested !== undefined && requested !== '6' && requested !== '7') throw new CliError(`--typescript takes 6 or 7, not '${requested}'.`, 2);
  const found = resolveTypeScript(projectDir);
  const major = found ? Number(found.version.split('.')[0]) : undefined;
  if (requested === '7') {
    if (major !== 7)
      throw new CliError(
        `--typescript 7: the project in ${projectDir} resolves ${found ? `TypeScript ${found.version} (${found.packageDir})` : 'no typescript package'}; install it with npm i -D typescript@7.`,
        2,
      );
    return { major: 7, ...found! };
  }
  if (requested === undefined && major === 7) return { major: 7, ...found! };
  return { major: 6, version: found?.version ?? 'the CLI’s own', ...(found ? { packageDir: found.packageDir } : {}) };
}

function resolveTypeScript(projectDir: string): { version: string; packageDir: string } | undefined {
  try {
    const manifest = createRequire(path.join(path.resolve(projectDir), 'package.json')).resolve('typescript/package.json');
    const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? { version, packageDir: path.dirname(manifest) } : undefined;
  } catch {
    return undefined;
  }
}
