import type { ToolDeclaration } from '@toolwright/schema';

/** The `tools.json` manifest: declarations sorted by name, two-space JSON, trailing newline (diffs cleanly). */
export function renderManifest(declarations: readonly ToolDeclaration[]): string {
  const sorted = [...declarations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/** Names of the tools that differ between two manifests, for a drift message. */
export function manifestDrift(expected: string, actual: string): string[] {
  const index = (text: string): Map<string, string> => {
    try {
      const list = JSON.parse(text) as ToolDeclaration[];
      return new Map(list.map((d) => [d.name, JSON.stringify(d)]));
    } catch {
      return new Map([['(unparsable manifest)', text]]);
    }
  };
  const before = index(actual);
  const after = index(expected);
  const changes: string[] = [];
  for (const [name, text] of after) {
    if (!before.has(name)) changes.push(`+ ${name} (new)`);
    else if (before.get(name) !== text) changes.push(`~ ${name} (changed)`);
  }
  for (const name of before.keys()) if (!after.has(name)) changes.push(`- ${name} (removed)`);
  return changes;
}
