import type { ToolDeclaration } from '@toolwright/schema';
import { declarationChanges, formatChange } from '../breaking-changes.js';

/**
 * `emit --check`'s message for an output that differs: the drifted tools, then, for a manifest, which changes break
 * calls written against the committed one (or that none do).
 */
export function checkMessage(file: string, drift: readonly string[], manifest: string | undefined, declarations: readonly ToolDeclaration[]): string {
  const lines = [`${file} is out of date with the tool signatures:`, ...drift.map((line) => `  ${line}`)];
  const committed = manifest === undefined ? undefined : parseManifest(manifest);
  if (committed) {
    const breaking = declarationChanges(committed, declarations).filter((change) => change.breaking);
    if (breaking.length > 0)
      lines.push(
        `Breaking changes since ${file} (calls valid against it may now be refused, or their results read differently):`,
        ...breaking.map((c) => `  ${formatChange(c)}`),
      );
    else lines.push(`No breaking changes since ${file} (new optional parameters, wider parameters, narrower results, descriptions or other metadata only).`);
  }
  lines.push('Run `toolwright emit` without --check and commit the result.');
  return lines.join('\n');
}

function parseManifest(text: string): ToolDeclaration[] | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as ToolDeclaration[]) : undefined;
  } catch {
    return undefined;
  }
}
