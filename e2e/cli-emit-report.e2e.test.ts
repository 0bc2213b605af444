import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyProject } from './support/temp-project.js';
import { toolwright } from './support/run.js';

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function project(label: string): string {
  const dir = copyProject('basic-project', label);
  temporary.push(dir);
  return dir;
}

/** The totals row of the report table: the tokens of each dialect. */
function totals(table: string): number[] {
  const row = table.split('\n').find((line) => line.startsWith('total '));
  return row!.trim().split(/\s+/).slice(1).map(Number);
}

describe('toolwright emit --report', () => {
  it('prints each tool in each dialect, the totals and what each lowering loses, on stdout', () => {
    const dir = project('report');
    const result = toolwright(['emit', '--report'], dir);
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toMatch(/^tool\s+openai\s+openai-strict\s+anthropic\s+gemini\s+mcp$/m);
    expect(result.stdout).toMatch(/^read_lines(\s+\d+){5}$/m);
    expect(totals(result.stdout)).toHaveLength(5);
    // read_lines' `limit` is optional with a default: strict mode makes it nullable and tells the default in words.
    expect(result.stdout).toContain('openai-strict  $.limit: optional → required and nullable');
    expect(result.stdout).toContain('openai-strict  $.limit: default dropped (told in the description) [annotation]');
    expect(result.stderr).toMatch(/^3 tools from 3 files/);
    expect(fs.existsSync(path.join(dir, 'tools.json'))).toBe(true);
  });

  it('--report json prints the same figures as JSON', () => {
    const dir = project('report-json');
    const table = toolwright(['emit', '--report'], dir);
    const json = toolwright(['emit', '--report', 'json'], dir);
    expect(json.status, json.output).toBe(0);
    const report = JSON.parse(json.stdout) as { encoding: string; tools: { name: string }[]; totals: Record<string, number> };
    expect(report.encoding).toBe('o200k_base');
    expect(report.tools.map((t) => t.name)).toEqual(['add_numbers', 'greet', 'read_lines']);
    expect(Object.values(report.totals)).toEqual(totals(table.stdout));
    expect(toolwright(['emit', '--report', 'yaml'], dir)).toMatchObject({ status: 2, output: expect.stringContaining("not 'yaml'") });
  });
});

describe('toolwright emit --budget', () => {
  it('passes under the budget and fails over it, naming the total, the budget and the dialect', () => {
    const dir = project('budget');
    const json = JSON.parse(toolwright(['emit', '--report', 'json'], dir).stdout) as { totals: Record<string, number> };
    const largest = Math.max(...Object.values(json.totals));
    const dialect = Object.keys(json.totals).find((d) => json.totals[d] === largest)!;

    const under = toolwright(['emit', '--budget', String(largest)], dir);
    expect(under.status, under.output).toBe(0);
    expect(under.stderr).toContain(`Declaration budget: ${largest} of ${largest} tokens (${dialect}).`);

    const over = toolwright(['emit', '--budget', String(largest - 1)], dir);
    expect(over.status).toBe(1);
    expect(over.stderr).toContain(`The declarations take ${largest} tokens in the ${dialect} dialect, over the budget of ${largest - 1}`);

    const anthropic = toolwright(['emit', '--budget', String(json.totals.anthropic), '--budget-dialect', 'anthropic'], dir);
    expect(anthropic.status, anthropic.output).toBe(0);
    expect(toolwright(['emit', '--budget', 'lots'], dir)).toMatchObject({ status: 2, output: expect.stringContaining('whole number of tokens') });
  });
});

describe('toolwright emit --check', () => {
  it('names the breaking changes since the committed manifest, per tool', () => {
    const dir = project('check-breaking');
    expect(toolwright(['emit'], dir).status).toBe(0);
    const source = path.join(dir, 'src', 'math.ts');
    fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace('b: number)', 'b: number, c: number)'));
    const drift = toolwright(['emit', '--check'], dir);
    expect(drift.status).toBe(1);
    expect(drift.output).toContain('~ add_numbers (changed)');
    expect(drift.output).toContain(
      'Breaking changes since tools.json (calls valid against it may now be refused, or their results read differently):\n  add_numbers $.c: required parameter added',
    );
  });

  it('says when the changes are not breaking, and still fails on the drift', () => {
    const dir = project('check-compatible');
    expect(toolwright(['emit'], dir).status).toBe(0);
    const source = path.join(dir, 'src', 'math.ts');
    fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace('b: number)', 'b: number, c?: number)'));
    const drift = toolwright(['emit', '--check'], dir);
    expect(drift.status).toBe(1);
    expect(drift.output).toContain('No breaking changes since tools.json');
  });
});

describe('toolwright emit --search-index', () => {
  it('writes the tools’ search index beside the manifest, the same each time, and --check fails when it is out of date', () => {
    const dir = project('search-index');
    const first = toolwright(['emit', '--search-index', 'tools.search.json'], dir);
    expect(first.status, first.output).toBe(0);
    const written = fs.readFileSync(path.join(dir, 'tools.search.json'), 'utf8');
    const index = JSON.parse(written) as { format: string; tools: Record<string, string> };
    expect(index.format).toBe('toolwright-search-index-1');
    expect(Object.keys(index.tools).sort()).toEqual(['add_numbers', 'greet', 'read_lines']);
    expect(toolwright(['emit', '--search-index', 'tools.search.json', '--check'], dir).status).toBe(0);
    fs.writeFileSync(path.join(dir, 'tools.search.json'), written.replace('add_numbers', 'add_number'));
    const stale = toolwright(['emit', '--search-index', 'tools.search.json', '--check'], dir);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('tools.search.json is out of date');
    expect(stale.stderr).toContain('(search index differs)');
  });
});
