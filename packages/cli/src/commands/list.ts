import type { ToolRegistry } from '@toolwright/registry';
import { CliError } from '../cli-error.js';

export const LIST_FORMATS = ['json'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

/** `toolwright list`: the registered tools' declarations, as they are or in a provider's format. */
export function listTools(registry: ToolRegistry, format: string): unknown {
  if (!(LIST_FORMATS as readonly string[]).includes(format)) throw new CliError(`Unknown --format '${format}'. Use one of: ${LIST_FORMATS.join(', ')}.`, 2);
  const declarations = registry.list();
  switch (format as ListFormat) {
    case 'json':
      return declarations;
  }
}
