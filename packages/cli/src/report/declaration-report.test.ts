import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '@toolwright/schema';
import { CliError } from '../cli-error.js';
import { checkBudget, parseBudget } from './check-budget.js';
import { countTokens } from './count-tokens.js';
import { declarationReport, largestDialect } from './declaration-report.js';
import { DIALECTS } from './dialects.js';
import { formatReport } from './format-report.js';

/** The core tools' declarations, as the model sees them. */
const CORE = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', '..', 'core-tools', 'src', '__snapshots__', 'declarations.json'), 'utf8'),
) as ToolDeclaration[];

describe(countTokens, () => {
  it('counts the o200k_base tokens of the compact JSON text', () => {
    expect(countTokens('hello world')).toBe(4); // "hello world" with its quotes
    expect(countTokens({ type: 'string' })).toBe(5);
    // o200k_base, not cl100k_base (16 and 23 tokens there): the larger vocabulary of GPT-4o and later.
    expect(countTokens('Сохраняет файл в рабочей папке')).toBe(12);
    expect(countTokens('यह फ़ाइल पढ़ता है')).toBe(8);
  });
});

describe(declarationReport, () => {
  const report = declarationReport(CORE);

  it('counts every tool in every dialect, and the totals are their sums', () => {
    expect(report.tools.map((t) => t.name)).toEqual(CORE.map((d) => d.name).sort());
    for (const dialect of DIALECTS) {
      expect(report.totals[dialect]).toBe(report.tools.reduce((sum, t) => sum + t.tokens[dialect], 0));
      expect(report.totals[dialect]).toBeGreaterThan(CORE.length * 50);
    }
  });

  it('MCP, which adds a title and annotations to the same schema, costs more than Anthropic', () => {
    for (const tool of report.tools) expect(tool.tokens.mcp).toBeGreaterThan(tool.tokens.anthropic);
    expect(largestDialect(report)).toBe('mcp');
  });

  it('finds the strict dialect turning the optional parameters of file_read into nullable ones', () => {
    const fileRead = report.tools.find((t) => t.name === 'file_read')!;
    expect(fileRead.losses['openai-strict']?.filter((l) => l.kind === 'optional-nullable').length).toBeGreaterThan(0);
    expect(fileRead.losses.anthropic).toBeUndefined();
  });
});

describe(formatReport, () => {
  it('prints a row per tool, the totals, then the losses per tool and dialect', () => {
    const text = formatReport(declarationReport(CORE.filter((d) => d.name === 'file_read')));
    const [title, header, row, rule, total] = text.split('\n');
    expect(title).toContain('o200k_base');
    expect(header!.split(/\s+/)).toEqual(['tool', ...DIALECTS]);
    expect(row).toMatch(/^file_read(\s+\d+){5}$/);
    expect(rule).toMatch(/^-+$/);
    expect(total!.replace('total', 'file_read').replace(/\s+/g, ' ')).toBe(row!.replace(/\s+/g, ' '));
    expect(text).toMatch(/ {4}openai-strict {2}\$\.\w+: optional → required and nullable/);
  });
});

describe(checkBudget, () => {
  const report = declarationReport(CORE);

  it('passes under the budget and says how much of it is used', () => {
    expect(checkBudget(report, report.totals.mcp)).toBe(`Declaration budget: ${report.totals.mcp} of ${report.totals.mcp} tokens (mcp).`);
  });

  it('fails over the budget naming the total, the budget and the dialect (the largest unless one is named)', () => {
    expect(() => checkBudget(report, report.totals.mcp - 1)).toThrow(
      new CliError(`The declarations take ${report.totals.mcp} tokens in the mcp dialect, over the budget of ${report.totals.mcp - 1} (o200k_base; 14 tools).`),
    );
    expect(() => checkBudget(report, report.totals.gemini - 1, 'gemini')).toThrow(/in the gemini dialect/);
    expect(checkBudget(report, report.totals.gemini, 'gemini')).toContain('(gemini)');
  });

  it('parses --budget and --budget-dialect, refusing what is not a count or a dialect', () => {
    expect(parseBudget('4000', 'anthropic')).toEqual({ budget: 4000, dialect: 'anthropic' });
    expect(() => parseBudget('4k', undefined)).toThrow(/whole number of tokens/);
    expect(() => parseBudget('10', 'claude')).toThrow(/one of openai, openai-strict, anthropic, gemini, mcp/);
  });
});
