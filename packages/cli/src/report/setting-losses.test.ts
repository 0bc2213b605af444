import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '@toolwright/schema';
import { declarationReport } from './declaration-report.js';
import { DIALECTS, lowerDeclaration } from './dialects.js';
import { formatReport } from './format-report.js';
import { settingLosses } from './setting-losses.js';

/** The transformer's declarations of tools that set defer, examples and callers (and `ping`, which sets none). */
const DECLARATIONS = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', '..', 'transformer', 'fixtures', 'options', 'provider-settings', 'expected.json'), 'utf8'),
) as ToolDeclaration[];
const byName = (name: string) => DECLARATIONS.find((d) => d.name === name)!;
const lostIn = (declaration: ToolDeclaration) =>
  Object.fromEntries(
    DIALECTS.map((dialect) => [dialect, settingLosses(declaration, lowerDeclaration(declaration, dialect).entry).map((loss) => loss.keyword)]),
  );

describe(settingLosses, () => {
  it('finds what each dialect cannot send: Gemini and Chat Completions lose defer, examples and callers; Anthropic and MCP keep them', () => {
    expect(lostIn(byName('read_lines'))).toEqual({
      openai: ['defer', 'examples', 'callers'],
      'openai-strict': ['defer', 'examples', 'callers'],
      anthropic: [],
      gemini: ['defer', 'examples', 'callers'],
      mcp: [],
    });
  });

  it('loses nothing of a tool that declares none of the settings, and never strict (the host asks for it)', () => {
    expect(Object.values(lostIn(byName('ping'))).flat()).toEqual([]);
    const strictOff = { ...byName('ping'), metadata: { ...byName('ping').metadata, strict: false as const } };
    expect(Object.values(lostIn(strictOff)).flat()).toEqual([]);
  });

  it('is a loss of the tool, not of a schema place, and annotation-like (no one re-validates it)', () => {
    expect(settingLosses(byName('convert'), lowerDeclaration(byName('convert'), 'gemini').entry)).toEqual([
      { path: '(tool)', kind: 'setting', keyword: 'defer', described: false, revalidated: false },
      { path: '(tool)', kind: 'setting', keyword: 'examples', described: false, revalidated: false },
      { path: '(tool)', kind: 'setting', keyword: 'callers', described: false, revalidated: false },
    ]);
  });
});

describe('emit --report with tool settings', () => {
  it('lists the lost settings under the tool, per dialect, with what it means for the model', () => {
    const report = declarationReport(DECLARATIONS);
    const pingLosses = Object.values(report.tools.find((t) => t.name === 'ping')!.losses).flat();
    expect(pingLosses.filter((loss) => loss.kind === 'setting')).toEqual([]);
    const text = formatReport(report);
    expect(text).toContain('    gemini         (tool): defer not sent: the dialect has no deferred loading, so the tool is loaded up front');
    expect(text).toContain('    openai         (tool): examples not sent: the dialect has no input examples, so the model is shown none');
    expect(text).toMatch(/ {4}gemini {9}\(tool\): callers not sent: .*code-execution tool cannot/);
    expect(text).not.toMatch(/ {4}(anthropic|mcp) +\(tool\)/);
  });
});
