import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './run.js';

/** The official MCP conformance suite (an exact pin in the root package.json) and the Node.js it needs (>= 22). */
export const CONFORMANCE = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
export const CONFORMANCE_NODE = '22.23.3';

/** The revisions the suite judges a server by, each run at its own wire (2025-11-25: sessions; 2026-07-28: stateless). */
export type Revision = '2025-11-25' | '2026-07-28';

/**
 * What `toolwright serve` must make of each scenario a revision requires (or runs unscored): pass it, or — where it does
 * not apply to a server of tools — fail only in the checks named, for the reason given. A scenario the table does not
 * name must pass: a new one in a new release of the suite is judged, not ignored.
 */
export type Expectation = 'pass' | { failsOnly: RegExp; why: string };

const NO_PROMPTS = 'a Toolwright server serves tools: it has no prompts (prompts/list, prompts/get are not served)';
const NO_RESOURCES = 'a Toolwright server serves tools: it has no resources (resources/* are not served)';
const NOT_APPLICABLE = /.*/;

/** What neither revision's scenarios find in a server of tools: prompts, resources, completion of their arguments. */
const TOOLS_ONLY: Record<string, Expectation> = {
  'completion-complete': { failsOnly: NOT_APPLICABLE, why: 'completion completes prompt and resource-template arguments, which a tools server has none of' },
  'resources-list': { failsOnly: NOT_APPLICABLE, why: NO_RESOURCES },
  'resources-read-text': { failsOnly: NOT_APPLICABLE, why: NO_RESOURCES },
  'resources-read-binary': { failsOnly: NOT_APPLICABLE, why: NO_RESOURCES },
  'resources-templates-read': { failsOnly: NOT_APPLICABLE, why: NO_RESOURCES },
  'prompts-list': { failsOnly: NOT_APPLICABLE, why: NO_PROMPTS },
  'prompts-get-simple': { failsOnly: NOT_APPLICABLE, why: NO_PROMPTS },
  'prompts-get-with-args': { failsOnly: NOT_APPLICABLE, why: NO_PROMPTS },
  'prompts-get-embedded-resource': { failsOnly: NOT_APPLICABLE, why: NO_PROMPTS },
  'prompts-get-with-image': { failsOnly: NOT_APPLICABLE, why: NO_PROMPTS },
};

export const EXPECTATIONS: Record<Revision, Record<string, Expectation>> = {
  '2025-11-25': {
    ...TOOLS_ONLY,
    'logging-set-level': {
      failsOnly: NOT_APPLICABLE,
      why: 'logging/setLevel and log messages: removed in 2026-07-28; tools report progress as progress notifications',
    },
    'tools-call-with-logging': { failsOnly: NOT_APPLICABLE, why: 'log messages (see logging-set-level)' },
    'resources-subscribe': { failsOnly: NOT_APPLICABLE, why: NO_RESOURCES },
    'resources-unsubscribe': { failsOnly: NOT_APPLICABLE, why: NO_RESOURCES },
    'server-sse-polling': {
      failsOnly: /^incoming-sse-event$/,
      why: "pending in the suite: its test_reconnection tool closes the call's own SSE stream mid-call, which a tool cannot reach, and resuming needs an event store sessions do not keep",
    },
  },
  '2026-07-28': {
    ...TOOLS_ONLY,
    caching: { failsOnly: /prompts|resources/, why: `the caching hints of tools/list are checked; ${NO_PROMPTS}, and no resources` },
    'input-required-result-non-tool-request': { failsOnly: NOT_APPLICABLE, why: `it asks through prompts/get; ${NO_PROMPTS}` },
    'http-custom-header-server-validation': {
      failsOnly: /^sep-2243-/,
      why: 'pending in the suite: custom request headers mirrored from tool parameters (x-mcp-header) are not declared by Toolwright tools',
    },
  },
};

/** One check of a scenario as the suite wrote it (`checks.json`). */
export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

/** The checks of every scenario the suite ran, by scenario name. */
export function readResults(outDir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const entry of fs.readdirSync(outDir)) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
    if (!match) continue;
    results.set(match[1]!, JSON.parse(fs.readFileSync(path.join(outDir, entry, 'checks.json'), 'utf8')) as Check[]);
  }
  return results;
}

/** What went wrong against the table: each line a scenario and its checks that failed where they must pass. */
export function judge(revision: Revision, results: Map<string, Check[]>): string[] {
  const problems: string[] = [];
  for (const [scenario, checks] of results) {
    const expected = EXPECTATIONS[revision][scenario] ?? 'pass';
    const failed = checks.filter((check) => check.status === 'FAILURE');
    const wrong = expected === 'pass' ? failed : failed.filter((check) => !expected.failsOnly.test(check.id));
    for (const check of wrong) problems.push(`${scenario}: ${check.id} — ${check.errorMessage ?? 'failed'}`);
  }
  return problems;
}

/** A Node.js of at least 22 to run the suite with: this one, else the registry's `node` package (cached outside the repo). */
export function conformanceNode(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const found = spawnSync(path.join(REPO, 'tools', 'release', 'node-binary.sh'), [CONFORMANCE_NODE], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`could not install Node.js ${CONFORMANCE_NODE} for the conformance suite: ${found.stderr}`);
  return found.stdout.trim();
}
