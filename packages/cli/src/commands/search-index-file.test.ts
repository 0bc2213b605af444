import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSearchIndex, fromFunction, ToolRegistry } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';
import { useSearchIndexFile } from './search-index-file.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-search-index-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const declare = (name: string, description: string): ToolDeclaration => ({
  name,
  description,
  parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
  parameterOrder: [],
  metadata: {
    tier: 'read-only',
    timeoutMs: 1000,
    sideEffects: [],
    capabilities: [],
    determinism: 'maybe',
    resources: { timeoutMs: 1000 },
    parallel: true,
    tags: [],
  },
});
const TOOLS = [declare('count_zebras', 'Counts the zebras in a photo.'), declare('paint_fence', 'Paints a fence.')];
const registry = () => {
  const r = new ToolRegistry();
  for (const d of TOOLS) r.add(fromFunction(d, async () => undefined));
  return r;
};
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

describe(useSearchIndexFile, () => {
  it('has the registry search with the index emit wrote', () => {
    const r = registry();
    useSearchIndexFile(r, write('index.json', JSON.stringify(buildSearchIndex(TOOLS))));
    expect(r.search('zebras').map((m) => m.name)).toEqual(['count_zebras']);
    expect(r.searchIndexLoaded).toBe(true);
  });

  it.for([
    ['a missing file', () => path.join(dir, 'nowhere.json'), 'no such file'],
    ['a file that is not JSON', () => write('bad.json', '{ not json'), 'not JSON'],
    ['JSON that is no index', () => write('other.json', '{"format": "x"}'), 'format is "x"'],
  ] as const)('refuses %s as a usage error, saying why', ([, file, why]) => {
    expect(() => useSearchIndexFile(registry(), file())).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining(why) }));
  });
});
