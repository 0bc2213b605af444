import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATASTROPHIC } from '../test-support/catastrophic-patterns.js';
import { PatternTooSlowError, runRegexJob } from './regex-worker.js';

describe(runRegexJob, () => {
  it('finds the same lines as a line-by-line test (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.stringMatching(/^[ab\n]{0,6}$/), { maxLength: 8 }), { maxLength: 5 }),
        fc.constantFrom('a', 'ab', '^b', 'a$', 'b+'),
        async (files, pattern) => {
          const texts = files.map((parts) => parts.join('\n'));
          const expected = texts.map((text) => text.split('\n').flatMap((line, i) => (new RegExp(pattern).test(line) ? [i + 1] : [])));
          expect(await runRegexJob({ mode: 'lines', source: pattern, flags: 'gmu', texts })).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('returns every match as start and end offsets, and refuses a pattern that matches empty text', async () => {
    expect(await runRegexJob({ mode: 'spans', source: 'b+', flags: 'gm', texts: ['abba b'] })).toEqual([[1, 3, 5, 6]]);
    await expect(runRegexJob({ mode: 'spans', source: 'z*', flags: 'gm', texts: ['abc'] })).rejects.toThrow('matches empty text');
  });

  it.for(CATASTROPHIC)('stops %s at its budget with a clear error', async ([source, text]) => {
    await expect(runRegexJob({ mode: 'lines', source, flags: 'gmu', texts: [text] }, { budgetMs: 300, hint: 'or pass literal: true' })).rejects.toThrow(
      new PatternTooSlowError(
        'The pattern took longer than 0.3 s and was stopped: it backtracks too much (nested quantifiers such as (a+)+, overlapping alternatives such as (a|a)*, or backreferences). Simplify it, or pass literal: true.',
      ),
    );
  });

  it('leaves the event loop free while a pattern runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await expect(runRegexJob({ mode: 'lines', source: '^(a+)+$', flags: 'gm', texts: [`${'a'.repeat(40)}!`] }, { budgetMs: 500 })).rejects.toBeInstanceOf(
      PatternTooSlowError,
    );
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
  });

  it('stops the pattern when the call is aborted, and runs the next job afterwards', async () => {
    const controller = new AbortController();
    const running = runRegexJob({ mode: 'lines', source: '^(a+)+$', flags: 'gm', texts: [`${'a'.repeat(40)}!`] }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('timed out')), 50);
    await expect(running).rejects.toThrow('timed out');
    expect(await runRegexJob({ mode: 'lines', source: 'x', flags: 'gm', texts: ['a\nx'] })).toEqual([[2]]);
  });

  it('rejects with the abort reason when it is an Error, and with a cancelled CoreToolError otherwise', async () => {
    const reason = new Error('stopped by the host');
    await expect(runRegexJob({ mode: 'lines', source: 'x', flags: 'gm', texts: ['x'] }, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    const job = { mode: 'lines', source: 'x', flags: 'gm', texts: ['x'] } as const;
    await expect(runRegexJob(job, { signal: AbortSignal.abort('a string') })).rejects.toMatchObject({
      code: 'cancelled',
      message: 'The search was cancelled.',
    });
    const controller = new AbortController();
    const running = runRegexJob({ mode: 'lines', source: '^(a+)+$', flags: 'gm', texts: [`${'a'.repeat(40)}!`] }, { signal: controller.signal });
    setTimeout(() => controller.abort(42), 50);
    await expect(running).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('runs concurrent jobs independently', async () => {
    const slow = runRegexJob({ mode: 'lines', source: '^(a+)+$', flags: 'gm', texts: [`${'a'.repeat(40)}!`] }, { budgetMs: 400 });
    expect(await runRegexJob({ mode: 'lines', source: 'b', flags: 'gm', texts: ['a\nb'] })).toEqual([[2]]);
    await expect(slow).rejects.toBeInstanceOf(PatternTooSlowError);
  });
});
