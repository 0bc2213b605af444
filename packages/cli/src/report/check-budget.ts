import { CliError } from '../cli-error.js';
import { largestDialect, type DeclarationReport } from './declaration-report.js';
import { DIALECTS, type Dialect } from './dialects.js';

/**
 * `emit --budget <tokens>`: the total of one dialect (`--budget-dialect`, by default the largest) must not exceed
 * the budget; over it, a CliError (exit 1) naming the total, the budget and the dialect.
 */
export function checkBudget(report: DeclarationReport, budget: number, dialect: Dialect = largestDialect(report)): string {
  const total = report.totals[dialect];
  if (total > budget) {
    throw new CliError(
      `The declarations take ${total} tokens in the ${dialect} dialect, over the budget of ${budget} (${report.encoding}; ${report.tools.length} tool${report.tools.length === 1 ? '' : 's'}).`,
      1,
    );
  }
  return `Declaration budget: ${total} of ${budget} tokens (${dialect}).`;
}

/** A `--budget` / `--budget-dialect` value, or a usage error. */
export function parseBudget(budget: string, dialect: string | undefined): { budget: number; dialect?: Dialect } {
  const tokens = Number(budget);
  if (!/^\d+$/.test(budget) || !Number.isSafeInteger(tokens)) throw new CliError(`--budget takes a whole number of tokens, not '${budget}'.`, 2);
  if (dialect === undefined) return { budget: tokens };
  if (!(DIALECTS as readonly string[]).includes(dialect)) throw new CliError(`--budget-dialect takes one of ${DIALECTS.join(', ')}, not '${dialect}'.`, 2);
  return { budget: tokens, dialect: dialect as Dialect };
}
