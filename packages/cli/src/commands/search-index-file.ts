import fs from 'node:fs';
import type { ToolRegistry } from '@toolwright/registry';
import { CliError } from '../cli-error.js';

/** `serve --search-index <file>`: the registry searches with the index `emit --search-index` wrote; a file that is none is a usage error. */
export function useSearchIndexFile(registry: ToolRegistry, file: string): void {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof SyntaxError ? 'not JSON' : (error as Error).message;
    throw new CliError(`--search-index ${file}: ${why} (write it with \`toolwright emit --search-index ${file}\`).`, 2);
  }
  try {
    registry.useSearchIndex(data);
  } catch (error) {
    throw new CliError(`--search-index ${file}: ${(error as Error).message}`, 2);
  }
}
