// The official MCP conformance suite (@modelcontextprotocol/conformance, exact pin) against `toolwright serve` with a
// project of the suite's tools (e2e/mcp-conformance), as each revision requires it: 2025-11-25 (sessions) and
// 2026-07-28 (stateless). What does not apply to a server of tools is named, with why, in e2e/support/conformance.ts;
// every other check must pass.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE, conformanceNode, judge, readResults, type Revision } from './support/conformance.js';
import { ServeHarness } from './support/serve-http.js';

const PROJECT = path.join(__dirname, 'mcp-conformance', 'tsconfig.json');
const harness = new ServeHarness();
let url = '';
let node = '';

beforeAll(async () => {
  node = conformanceNode();
  const dir = harness.folder('tw-conformance-');
  url = (await harness.startHttp(dir, ['--sessions', '--workspace', dir, '-p', PROJECT])).url;
}, 300_000);
afterAll(() => harness.cleanUp());

/** Runs the suite as a revision requires it; resolves with what it printed and the folder of its results. */
function runSuite(revision: Revision): Promise<{ output: string; outDir: string }> {
  const outDir = harness.folder(`tw-conformance-${revision}-`);
  return new Promise((resolve, reject) => {
    const child = spawn(node, [CONFORMANCE, 'server', '--url', url, '--requirements', revision, '-o', outDir], {
      cwd: outDir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    // The suite exits non-zero when a scenario fails, including those that do not apply: the table judges.
    child.on('exit', () => resolve({ output, outDir }));
  });
}

describe.each(['2025-11-25', '2026-07-28'] as const)('the MCP conformance suite, as %s requires', (revision) => {
  it('passes every scenario that applies to a server of tools', async () => {
    const { output, outDir } = await runSuite(revision);
    const planned = Number(/Running requirements \S+ \((\d+) scenarios\)/.exec(output)?.[1]);
    const results = readResults(outDir);
    expect(planned, output.slice(0, 2000)).toBeGreaterThan(0);
    expect(results.size, `scenarios with results: ${[...results.keys()].join(', ')}`).toBe(planned);
    expect(judge(revision, results)).toEqual([]);
    expect(fs.readdirSync(outDir).length).toBe(planned);
  }, 600_000);
});
