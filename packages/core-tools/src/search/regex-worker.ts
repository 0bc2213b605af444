import { Worker } from 'node:worker_threads';
import { CoreToolError } from '../core-tool-error.js';

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

// Evaluated from text, not loaded from a file: the same code then runs from the TypeScript source
// under vitest and from the CommonJS build.
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

/** One warm worker kept between jobs (unreferenced: it never keeps the process alive). */
let idle: Worker | undefined;

function takeWorker(): Worker {
  const worker = idle ?? new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 512 } });
  idle = undefined;
  worker.unref();
  // An 'error' event with no listener would be thrown in this thread.
  if (worker.listenerCount('error') === 0) worker.on('error', () => undefined);
  return worker;
}

function releaseWorker(worker: Worker): void {
  if (idle) void worker.terminate();
  else idle = worker;
}

/** Runs a job in the worker; rejects with `PatternTooSlowError` past the budget, or with the abort reason. */
export function runRegexJob(job: RegexJob, options: RegexJobOptions = {}): Promise<number[][]> {
  const chars = job.texts.reduce((sum, text) => sum + text.length, 0);
  const budgetMs = options.budgetMs ?? Math.ceil(REGEX_BUDGET_MS * Math.max(1, chars / MEBIBYTE_CHARS));
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const worker = takeWorker();
    const finish = (keep: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (keep) releaseWorker(worker);
      else void worker.terminate();
    };
    const onMessage = (reply: { results?: number[][]; error?: string }) => {
      finish(true);
      if (reply.results) resolve(reply.results);
      else
        reject(
          new CoreToolError(
            'invalid_pattern',
            reply.error === 'empty'
              ? 'The regular expression matches empty text; make it match at least one character.'
              : `The regular expression failed: ${reply.error}. Correct it, or search for plain text.`,
          ),
        );
    };
    const onError = (error: Error) => {
      finish(false);
      reject(
        new PatternTooSlowError(
          `The pattern could not be run (${error.message}); it probably backtracks too much. Simplify it${options.hint ? `, ${options.hint}` : ''}.`,
        ),
      );
    };
    const onExit = () => onError(new Error('the worker stopped'));
    const onAbort = () => {
      finish(false);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      finish(false);
      reject(
        new PatternTooSlowError(
          `The pattern took longer than ${Math.round(budgetMs / 100) / 10} s and was stopped: it backtracks too much (nested quantifiers such as (a+)+, overlapping alternatives such as (a|a)*, or backreferences). Simplify it${options.hint ? `, ${options.hint}` : ''}.`,
        ),
      );
    }, budgetMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job);
  });
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new CoreToolError('cancelled', 'The search was cancelled.');
}
