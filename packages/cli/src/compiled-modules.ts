import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { CliError } from './cli-error.js';
import type { ModuleFormat } from './project-build-cache.js';

/**
 * Loads a compiled module in this process, as the module system it was emitted for. What the project's own code
 * throws while loading (a missing dependency, a failing top-level statement) is the project's error, named with
 * its file, never this program's.
 */
export async function loadCompiled(file: string, format: ModuleFormat, source: string): Promise<Record<string, unknown>> {
  try {
    if (format === 'module') return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    return createRequire(file)(file) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const hint = format === 'commonjs' && needsModules(error) ? ` (${MODULES_HINT})` : '';
    throw new CliError(`Loading the tools of ${source} failed: ${reason}${hint}`, 1);
  }
}

const MODULES_HINT =
  'the project runs as CommonJS, which cannot load an ES-only dependency or use import.meta or top-level await: set "type": "module" in your package.json to run it as ES modules';

/** Whether a CommonJS load failed for want of ES modules: an ES-only package, `import.meta`, top-level `await`. */
function needsModules(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ERR_REQUIRE_ESM' || code === 'ERR_REQUIRE_ASYNC_MODULE' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return true;
  return error instanceof SyntaxError && /import\.meta|outside a module|await is only valid/.test(error.message);
}
