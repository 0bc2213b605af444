import type { ToolDeclaration } from '@toolwright/schema';

/** Each declaration as it stands in the manifest, kept while the declaration is (an unchanged tool's is reused by `emit --watch`). */
const rendered = new WeakMap<ToolDeclaration, string>();

/**
 * The last manifest rendered, by its elements: an `emit --watch` edit that changed no declaration gets that very
 * string back. The elements of one rendered whole are cut out of it when first needed (`declarations`).
 */
let last: { items?: string[]; declarations: readonly ToolDeclaration[]; text: string } | undefined;

/** The `tools.json` manifest: declarations sorted by name, two-space JSON, trailing newline (diffs cleanly). */
export function renderManifest(declarations: readonly ToolDeclaration[]): string {
  const sorted = [...declarations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (sorted.length === 0) return '[]\n';
  cutElements();
  // Many not rendered yet (the first emit): the whole array at once (one native pass, ~100 ms for 2,000 tools, where an
  // indented stringify per tool took 225); its elements are cut out of it should another render need them.
  if (sorted.filter((declaration) => !rendered.has(declaration)).length > 64) {
    const whole = (last = { declarations: sorted, text: `${JSON.stringify(sorted, null, 2)}\n` });
    // `emit --watch` stays to render again: its elements are cut out while it waits (an unref'd timer, so a one-off emit does not wait for it).
    setTimeout(() => whole === last && cutElements(), 0).unref();
    return whole.text;
  }
  // What JSON.stringify(sorted, null, 2) writes, one element at a time.
  const items = sorted.map((declaration) => {
    let text = rendered.get(declaration);
    if (text === undefined) rendered.set(declaration, (text = `  ${JSON.stringify(declaration, null, 2).replace(/\n/g, '\n  ')}`));
    return text;
  });
  // The same elements as last time (a re-analysed tool whose declaration came out the same compares equal by text):
  // the same string, which the caller compares with what it wrote without reading 10 MB again.
  if (last?.items && last.items.length === items.length && items.every((item, index) => item === last!.items![index])) return last.text;
  last = { items, declarations: sorted, text: `[\n${items.join(',\n')}\n]\n` };
  return last.text;
}

/** Cuts the last manifest rendered whole into its elements, each kept for its declaration. */
function cutElements(): void {
  if (!last || last.items !== undefined) return;
  const elements = elementsOf(last.text.slice(0, -1));
  if (elements.length === last.declarations.length) elements.forEach((text, index) => rendered.set(last!.declarations[index]!, text));
  last.items = elements;
}

/**
 * The elements of an array written by `JSON.stringify(array, null, 2)`, each as it stands there (two spaces in, no
 * comma). An element's last line is `  }` and the next one's first `  {`: no string holds a raw line break, and
 * deeper lines are indented further, so `\n  },\n  {` is only ever the border between two.
 */
function elementsOf(whole: string): string[] {
  if (!whole.startsWith('[\n  {') || !whole.endsWith('}\n]')) return [];
  const parts = whole.slice(2, -2).split('\n  },\n  {');
  return parts.map((part, index) => `${index === 0 ? '' : '  {'}${part}${index === parts.length - 1 ? '' : '\n  }'}`);
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
