import picomatch from 'picomatch';
import { CoreToolError } from '../core-tool-error.js';
import { abortError } from '../workers/abort-error.js';
import { runWorkerJob, type WorkerJobOutcome, type WorkerProgram } from '../workers/run-worker-job.js';

/** A glob as picomatch compiles it; `basename`: matched against the last segment of a path only. */
interface CompiledGlob {
  glob: string;
  source: string;
  flags: string;
  basename: boolean;
}

/** Paths matched per worker job, and the time one job may take: linear globs need well under a millisecond per thousand paths. */
export const PATHS_PER_JOB = 4096;
export const GLOB_BUDGET_MS = 2_000;

// picomatch's own test, for the regexes it made: the glob itself matches, else the regex does
// (against the last segment for `basename`).
const GLOB_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ include, exclude, paths }) => {
  const compile = (globs) => globs.map((g) => ({ ...g, regex: new RegExp(g.source, g.flags) }));
  const test = (g, path) => path === g.glob || g.regex.test(g.basename ? path.slice(path.lastIndexOf('/') + 1) : path);
  const wanted = compile(include);
  const unwanted = compile(exclude);
  parentPort.postMessage(paths.map((path) => ((wanted.length === 0 || wanted.some((g) => test(g, path))) && !unwanted.some((g) => test(g, path)) ? 1 : 0)));
});
`;
const GLOB_PROGRAM: WorkerProgram = { source: GLOB_SOURCE, maxHeapMb: 256 };

/**
 * Include and exclude globs matched against paths in a worker thread, batch by batch, each batch
 * under a time budget: picomatch turns `*a*a*a*a*b` into a regex that backtracks for hours on one
 * long file name, and no regex can be interrupted on the thread that runs it.
 * @example const filter = new GlobFilter(['src/**'], ['*.test.ts'], { basename: 'without-slash' });
 * await filter.select(['src/a.ts', 'src/a.test.ts'], signal) // [true, false]
 */
export class GlobFilter {
  private readonly include: CompiledGlob[];
  private readonly exclude: CompiledGlob[];

  /** `basename: 'without-slash'`: a glob without `/` matches a file name anywhere, as ripgrep's `-g` does. */
  constructor(include: readonly string[], exclude: readonly string[], options: { basename: 'never' | 'without-slash' }) {
    const compile = (glob: string): CompiledGlob => {
      const basename = options.basename === 'without-slash' && !glob.includes('/');
      let regex: RegExp;
      try {
        regex = picomatch.makeRe(glob, { dot: true, basename });
      } catch (error) {
        throw new CoreToolError('invalid_pattern', `The glob ${JSON.stringify(glob)} is not valid: ${(error as Error).message}.`);
      }
      return { glob, source: regex.source, flags: regex.flags, basename };
    };
    this.include = include.map(compile);
    this.exclude = exclude.map(compile);
  }

  /** Whether each path matches an include glob (or there are none) and no exclude glob. */
  async select(paths: readonly string[], signal: AbortSignal | undefined): Promise<boolean[]> {
    const selected: boolean[] = [];
    for (let start = 0; start < paths.length; start += PATHS_PER_JOB) {
      const batch = paths.slice(start, start + PATHS_PER_JOB);
      const outcome = await runWorkerJob<number[]>(
        GLOB_PROGRAM,
        { include: this.include, exclude: this.exclude, paths: batch },
        { budgetMs: GLOB_BUDGET_MS, signal },
      );
      if (!outcome.ok) throw this.failure(outcome, batch.length);
      for (const bit of outcome.reply) selected.push(bit === 1);
    }
    return selected;
  }

  private failure(outcome: Exclude<WorkerJobOutcome<unknown>, { ok: true }>, paths: number): Error {
    if (outcome.stop === 'aborted') return abortError(outcome.reason, 'The search was cancelled.');
    const globs = [...this.include, ...this.exclude].map((g) => JSON.stringify(g.glob));
    const what =
      outcome.stop === 'budget'
        ? `took longer than ${GLOB_BUDGET_MS / 1000} s to match ${paths} path${paths === 1 ? '' : 's'} and ${globs.length === 1 ? 'was' : 'were'} stopped`
        : `could not be run (${outcome.detail})`;
    return new CoreToolError(
      'pattern_too_slow',
      `The glob${globs.length === 1 ? '' : 's'} ${globs.join(', ')} ${what}: several \`*\` in one segment, or extglobs such as +(a|aa), make matching backtrack. Simplify ${globs.length === 1 ? 'it' : 'them'}.`,
    );
  }
}
