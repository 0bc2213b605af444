import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { HELD_AT_MOST_MS, withEventLoopLag } from '../test-support/event-loop-lag.js';
import { GlobFilter } from './glob-filter.js';

describe(GlobFilter, () => {
  it('selects as picomatch matches, a glob without / matching names anywhere (property)', async () => {
    const segment = fc.stringMatching(/^[ab.]{1,3}$/);
    const glob = fc.constantFrom('*.a', 'a/**', '**/b', '{a,b}/*', 'a?', '.*', '**/*.b', 'b/**/a');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(segment, { minLength: 1, maxLength: 3 }), { maxLength: 20 }), glob, glob, async (segments, include, exclude) => {
        const paths = segments.map((parts) => parts.join('/'));
        const picked = await new GlobFilter([include], [exclude], { basename: 'without-slash' }).select(paths, undefined);
        const matcher = (g: string) => picomatch(g, { dot: true, basename: !g.includes('/') });
        expect(picked).toEqual(paths.map((p) => matcher(include)(p) && !matcher(exclude)(p)));
      }),
      { numRuns: 100 },
    );
  });

  it('selects every path without globs, and matches whole paths with basename never', async () => {
    expect(await new GlobFilter([], [], { basename: 'never' }).select(['a', 'b/c'], undefined)).toEqual([true, true]);
    expect(await new GlobFilter(['*.ts'], [], { basename: 'never' }).select(['a.ts', 'src/a.ts'], undefined)).toEqual([true, false]);
  });

  it('refuses a glob that backtracks, leaving the event loop free meanwhile', async () => {
    const filter = new GlobFilter([`${'*a'.repeat(12)}b`], [], { basename: 'never' });
    const { value, maxLagMs } = await withEventLoopLag(() => filter.select(['a'.repeat(200)], undefined).catch((error: Error) => error));
    expect(value).toMatchObject({
      code: 'pattern_too_slow',
      message: expect.stringMatching(/^The glob "(\*a){12}b" took longer than 2 s to match 1 path and was stopped/),
    });
    expect(maxLagMs).toBeLessThan(HELD_AT_MOST_MS);
  });

  it('rejects with the abort reason when it is an Error, and with a cancelled CoreToolError otherwise', async () => {
    const filter = new GlobFilter(['*.ts'], [], { basename: 'never' });
    const reason = new Error('timed out');
    await expect(filter.select(['a.ts'], AbortSignal.abort(reason))).rejects.toBe(reason);
    await expect(filter.select(['a.ts'], AbortSignal.abort('gone'))).rejects.toMatchObject({ code: 'cancelled', message: 'The search was cancelled.' });
  });
});
