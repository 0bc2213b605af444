import path from 'node:path';
import type { ToolDeclaration } from '@toolwright/schema';

const PATH_PARAMETERS = new Set(['path', 'file', 'filePath', 'file_path', 'dir', 'directory', 'cwd', 'target', 'source', 'destination']);

/** Whether a parameter names a filesystem path: by name, or by `format: "path"` in its schema. */
export function isPathParameter(declaration: ToolDeclaration, name: string): boolean {
  return PATH_PARAMETERS.has(name) || declaration.parameters.properties[name]?.format === 'path';
}

/**
 * What a call touches, for scheduling a batch: reads never conflict with reads; a write conflicts
 * with any call on an overlapping path; a call whose paths are unknown (`paths` undefined) conflicts
 * with every write and, when it writes, with everything (a barrier).
 */
export interface CallResources {
  access: 'read' | 'write';
  paths?: string[];
}

export function resourcesOf(declaration: ToolDeclaration | undefined, args: Record<string, unknown> | undefined): CallResources {
  if (!declaration) return { access: 'read', paths: [] }; // unknown tools fail at lookup and touch nothing
  const access = declaration.metadata.parallel ? 'read' : 'write';
  if (declaration.metadata.tier === 'privileged' || !args) return { access };
  const paths = Object.entries(args)
    .filter(([name, value]) => typeof value === 'string' && isPathParameter(declaration, name))
    .map(([, value]) => normalisePath(value as string));
  return paths.length > 0 ? { access, paths } : { access };
}

export function conflicts(a: CallResources, b: CallResources): boolean {
  if (a.access === 'read' && b.access === 'read') return false;
  if (!a.paths || !b.paths) return true;
  return a.paths.some((p) => b.paths!.some((q) => overlaps(p, q)));
}

function normalisePath(value: string): string {
  const scoped = /^(private|shared|public):\//.exec(value);
  const prefix = scoped ? `${scoped[1]}:` : 'private:';
  const rest = scoped ? value.slice(scoped[0].length - 1) : value;
  return prefix + path.posix.normalize(`/${rest.replace(/\\/g, '/')}`);
}

function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}
