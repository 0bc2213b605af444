import { CoreToolError } from '../core-tool-error.js';
import { abortError } from '../workers/abort-error.js';
import { runWorkerJob, type WorkerProgram } from '../workers/run-worker-job.js';

/**
 * JavaScript regexes backtrack: `^(a+)+$` on 30 `a`s runs for minutes, and a running regex cannot be
 * interrupted on the thread that runs it. Every regex built from a model's pattern therefore runs
 * here, in a worker thread, which is terminated when it overruns its budget or the call is aborted.
 */

/** How long a job may run per mebibyte of text it holds (and at least): linear patterns need a small fraction of it. */
export const REGEX_BUDGET_MS = 1_000;
const MEBIBYTE_CHARS = 1 << 20;

/** A pattern that ran past its budget (or exhausted the worker's memory): refuse it, do not retry it. */
export class PatternTooSlowError extends CoreToolError {
  constructor(message: string) {
    super('pattern_too_slow', message);
    this.name = 'PatternTooSlowError';
  }
}

/**
 * `lines`: per text, the 1-based numbers of lines with at least one match (regex flags must include
 * `g` and `m`); `spans`: per text, the flat `[start, end, start, end, ...]` of every match, or the
 * error `empty` when one matches empty text.
 */
export interface RegexJob {
  mode: 'lines' | 'spans';
  source: string;
  flags: string;
  texts: readonly string[];
}

export interface RegexJobOptions {
  /** Default: `REGEX_BUDGET_MS` per mebibyte of text, at least `REGEX_BUDGET_MS`. */
  budgetMs?: number;
  signal?: AbortSignal | undefined;
  /** Ends the message when the budget runs out: what the model can do instead. */
  hint?: string;
}

const WORKER_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
function lines(text, regex) {
  const out = [];
  regex.lastIndex = 0;
  let line = 1;
  let scanned = 0;
  let match;
  while ((match = regex.exec(text)) !== null) {
    for (let i = text.indexOf('\n', scanned); i !== -1 && i < match.index; i = text.indexOf('\n', i + 1)) line++;
    scanned = match.index;
    if (out[out.length - 1] !== line) out.push(line);
    const next = text.indexOf('\n', match.index);
    if (next === -1) break;
    line++;
    scanned = next + 1;
    regex.lastIndex = next + 1;
  }
  return out;
}
function spans(text, regex) {
  const out = [];
  regex.lastIndex = 0;
  let match;
  while ((match = regex.exec(text)) !== null) {
    if (match[0].length === 0) throw Object.assign(new Error('empty'), { empty: true });
    out.push(match.index, match.index + match[0].length);
  }
  return out;
}
parentPort.on('message', (job) => {
  try {
    const regex = new RegExp(job.source, job.flags);
    parentPort.postMessage({ results: job.texts.map((text) => (job.mode === 'lines' ? lines : spans)(text, regex)) });
  } catch (error) {
    parentPort.postMessage({ error: error && error.empty ? 'empty' : String(error && error.message) });
  }
});
`;

const REGEX_PROGRAM: WorkerProgram = { source: WORKER_SOURCE, maxHeapMb: 512 };

/** Runs a job in the worker; rejects with `PatternTooSlowError` past the budget, or with the abort reason. */
export async function runRegexJob(job: RegexJob, options: RegexJobOptions = {}): Promise<number[][]> {
  const chars = job.texts.reduce((sum, text) => sum + text.length, 0);
  const budgetMs = options.budgetMs ?? Math.ceil(REGEX_BUDGET_MS * Math.max(1, chars / MEBIBYTE_CHARS));
  const hint = options.hint ? `, ${options.hint}` : '';
  const outcome = await runWorkerJob<{ results?: number[][]; error?: string }>(REGEX_PROGRAM, job, { budgetMs, signal: options.signal });
  if (outcome.ok) {
    const { results, error } = outcome.reply;
    if (results) return results;
    throw new CoreToolError(
      'invalid_pattern',
      error === 'empty'
        ? 'The regular expression matches empty text; make it match at least one character.'
        : `The regular expression failed: ${error}. Correct it, or search for plain text.`,
    );
  }
  switch (outcome.stop) {
    case 'aborted':
      throw abortError(outcome.reason, 'The search was cancelled.');
    case 'crashed':
      throw new PatternTooSlowError(`The pattern could not be run (${outcome.detail}); it probably backtracks too much. Simplify it${hint}.`);
    case 'budget':
      throw new PatternTooSlowError(
        `The pattern took longer than ${Math.round(budgetMs / 100) / 10} s and was stopped: it backtracks too much (nested quantifiers such as (a+)+, overlapping alternatives such as (a|a)*, or backreferences). Simplify it${hint}.`,
      );
  }
}
