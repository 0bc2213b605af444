import { createRequire } from 'node:module';
import type typescript from 'typescript';
import { CliError } from './cli-error.js';

/**
 * Stops `what` (`toolwright emit`, loading a project's tools) — work that reads the project through TypeScript's compiler API when the `typescript`
 * this CLI loaded has none: TypeScript 7 (the native compiler, `latest` on npm since July 2026)
 * exports only its version from its package root, and has no transformers. Without this check such
 * a project met "readConfigFile is not a function". `ts`: the `typescript` module, loaded here by
 * default — not at this module's top, so a command that never needs the compiler never loads it, and one
 * that does loads it after `preloadTypeScript` (from V8's code cache).
 */
export function requireCompilerApi(what: string, ts: Partial<typeof typescript> = createRequire(__filename)('typescript') as typeof typescript): void {
  if (typeof ts.createProgram === 'function' && typeof ts.readConfigFile === 'function') return;
  const version = typeof (ts as { version?: unknown }).version === 'string' ? (ts as { version: string }).version : 'of unknown version';
  throw new CliError(
    `${what} reads the project through TypeScript's compiler API, which this project's TypeScript ${version} ` +
      `(the native compiler) does not have. On TypeScript 7, \`toolwright emit --module src/tools.generated.ts\` reads the project ` +
      `through the native compiler's own API and writes a module that attaches the declarations, which tsc (tsgo) compiles ` +
      `with the rest (docs/toolchain.md); ${what} itself needs TypeScript 6 (npm i -D typescript@6.0.3).`,
  );
}
