import fs from 'node:fs';
import path from 'node:path';
import { defineCommand, type CliIo } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { requireCompilerApi } from '../compiler-api.js';
import { projectTypeScript } from '../project-typescript.js';
import { preloadTypeScript } from '../typescript-code-cache.js';
import type { parseBudget } from '../report/check-budget.js';
import type { EmitResult } from './emit.js';

/** `toolwright emit`: a project's declarations as JSON (and/or a module), once, checked, or watched. */
export const emitCommand = defineCommand({
  options: {
    project: { type: 'string', short: 'p', default: 'tsconfig.json' },
    out: { type: 'string' },
    module: { type: 'string' },
    check: { type: 'boolean', default: false },
    watch: { type: 'boolean', default: false },
    'keep-going': { type: 'boolean', default: false },
    report: { type: 'boolean', default: false },
    budget: { type: 'string' },
    'budget-dialect': { type: 'string' },
    'search-index': { type: 'string' },
    typescript: { type: 'string' },
  },
  // `--report json`: the format is the one operand emit takes.
  positionals: true,
  async run(values, positionals, io) {
    const report = reportFormat(values.report, positionals);
    // The report's modules (the exporters, a tokenizer) load only for --report and --budget: every other command and
    // emit without them start faster (`toolwright build` on 2,000 tools spent ~0.5 s loading them).
    const budget = values.budget !== undefined ? (await import('../report/check-budget.js')).parseBudget(values.budget, values['budget-dialect']) : undefined;
    if (values['budget-dialect'] !== undefined && budget === undefined) throw new CliError('--budget-dialect needs --budget.', 2);
    if (values.watch && (report || budget)) throw new CliError('--watch cannot be combined with --report or --budget.', 2);
    const options = {
      project: values.project,
      ...(values.out !== undefined ? { out: values.out } : {}),
      ...(values.module !== undefined ? { module: values.module } : {}),
      check: values.check,
      keepGoing: values['keep-going'],
      // The registry and its search library load only for --search-index.
      ...(values['search-index'] !== undefined
        ? { searchIndex: { file: values['search-index'], build: (await import('@toolwright/registry')).buildSearchIndex } }
        : {}),
    };
    const log = (line: string) => io.err(`${line}\n`);
    if (options.check && values.watch) throw new CliError('--watch and --check cannot be combined.', 2);
    // TypeScript 7 (the project's `typescript`, or --typescript 7): read through the native compiler's own API.
    const project = path.resolve(values.project);
    const typescript = projectTypeScript(fs.existsSync(project) && fs.statSync(project).isDirectory() ? project : path.dirname(project), values.typescript);
    if (typescript.major === 7) {
      preloadTypeScript(); // the transformer loads TypeScript 6's module as its default surface: from the code cache
      const { emitTypeScript7, emitWatchTypeScript7 } = await import('./emit-typescript-7.js');
      if (values.watch) {
        await emitWatchTypeScript7(options, typescript, () => {}, log);
        return new Promise<number>(() => {}); // runs until the process is interrupted
      }
      return afterEmit(await emitTypeScript7(options, typescript, log), report, budget, io);
    }
    preloadTypeScript();
    requireCompilerApi('toolwright emit'); // before the transformer loads: it needs the compiler API at once
    if (values.watch) {
      if (options.check) throw new CliError('--watch and --check cannot be combined.', 2);
      const { emitWatch } = await import('./emit-watch.js');
      emitWatch(options, () => {}, log);
      return new Promise<number>(() => {}); // runs until the process is interrupted
    }
    const { emit } = await import('./emit.js');
    return afterEmit(emit(options, log), report, budget, io);
  },
});

/** `--report` / `--report table|json`: the format, or undefined without --report. */
function reportFormat(report: boolean, positionals: readonly string[]): 'table' | 'json' | undefined {
  const [format, ...rest] = positionals;
  if (format !== undefined && (!report || rest.length > 0 || (format !== 'table' && format !== 'json')))
    throw new CliError(`emit takes no operand${report ? ` but the report format (table or json), not '${positionals.join(' ')}'` : ` (got '${format}')`}.`, 2);
  return report ? (format ?? 'table') : undefined;
}

/** The report (stdout) and the budget, once the outputs are written or checked; the exit code. */
async function afterEmit(
  result: EmitResult,
  report: 'table' | 'json' | undefined,
  budget: ReturnType<typeof parseBudget> | undefined,
  io: CliIo,
): Promise<number> {
  if (result.errorCount > 0) return 1;
  if (!report && !budget) return 0;
  const [{ checkBudget }, { declarationReport }, { formatReport }] = await Promise.all([
    import('../report/check-budget.js'),
    import('../report/declaration-report.js'),
    import('../report/format-report.js'),
  ]);
  const figures = declarationReport(result.declarations);
  if (report === 'json') io.out(`${JSON.stringify(figures, null, 2)}\n`);
  else if (report === 'table') io.out(formatReport(figures));
  if (budget) io.err(`${checkBudget(figures, budget.budget, budget.dialect)}\n`);
  return 0;
}
