import type { ToolDeclaration } from '@toolwright/schema';
import { countTokens } from './count-tokens.js';
import { DIALECTS, lowerDeclaration, type Dialect } from './dialects.js';
import { loweringLosses, type Loss } from './lowering-losses.js';
import { settingLosses } from './setting-losses.js';

export interface ToolReport {
  name: string;
  /** o200k_base tokens of the tool's entry as each dialect sends it. */
  tokens: Record<Dialect, number>;
  /** What each dialect's lowering lost, schema and tool settings (dialects that lose nothing are left out). */
  losses: Partial<Record<Dialect, Loss[]>>;
}

/** `toolwright emit --report`: per tool and in total, each dialect's tokens and what its lowering loses. */
export interface DeclarationReport {
  encoding: 'o200k_base';
  tools: ToolReport[];
  totals: Record<Dialect, number>;
}

/** Lowers every declaration to every dialect, counts the tokens and compares the schemas. */
export function declarationReport(declarations: readonly ToolDeclaration[]): DeclarationReport {
  const sorted = [...declarations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const totals = Object.fromEntries(DIALECTS.map((d) => [d, 0])) as Record<Dialect, number>;
  const tools = sorted.map((declaration): ToolReport => {
    const tokens = {} as Record<Dialect, number>;
    const losses: ToolReport['losses'] = {};
    for (const dialect of DIALECTS) {
      const lowered = lowerDeclaration(declaration, dialect);
      tokens[dialect] = countTokens(lowered.entry);
      totals[dialect] += tokens[dialect];
      const found = [...loweringLosses(declaration.parameters, lowered.parameters), ...settingLosses(declaration, lowered.entry)];
      if (found.length > 0) losses[dialect] = found;
    }
    return { name: declaration.name, tokens, losses };
  });
  return { encoding: 'o200k_base', tools, totals };
}

/** The dialect with the most tokens in total (the first in column order on a tie). */
export function largestDialect(report: DeclarationReport): Dialect {
  return DIALECTS.reduce((largest, dialect) => (report.totals[dialect] > report.totals[largest] ? dialect : largest));
}
