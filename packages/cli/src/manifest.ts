import type { ToolDeclaration } from '@toolwright/schema';

/** Each declaration as it stands in the manifest, kept while the declaration is (an unchanged tool's is reused by `emit --watch`). */
const rendered = new WeakMap<ToolDeclaration, string>();

/** The last manifest rendered, by its elements: an `emit --watch` edit that changed no declaration gets that very string back. */
let last: { items: string[]; text: string } | undefined;

/** The `tools.json` manifest: declarations sorted by name, two-space JSON, trailing newline (diffs cleanly). */
export function renderManifest(declarations: readonly ToolDeclaration[]): string {
  const sorted = [...declarations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (sorted.length === 0) return '[]\n';
  // What JSON.stringify(sorted, null, 2) writes, one element at a time.
  const items = sorted.map((declaration) => {
    let text = rendered.get(declaration);
    if (text === undefined) rendered.set(declaration, (text = `  ${JSON.stringify(declaration, null, 2).replace(/\n/g, '\n  ')}`));
    return text;
  });
  // The same elements as last time (a re-analysed tool whose declaration came out the same compares equal by text):
  // the same string, which the caller compares with what it wrote without reading 10 MB again.
  if (last && last.items.length === items.length && items.every((item, index) => item === last!.items[index])) return last.text;
  last = { items, text: `[\n${items.join(',\n')}\n]\n` };
  return last.text;
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
