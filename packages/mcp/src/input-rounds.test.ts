import { describe, expect, it } from 'vitest';
import { SpentStates } from './input-rounds.js';

describe(SpentStates, () => {
  it('lets each state be used once, forgets those past their time, and holds no more than its bound', () => {
    const spent = new SpentStates(1000, 3);
    expect(spent.use('a', 0)).toBe(true);
    expect(spent.use('a', 10)).toBe(false);
    expect(spent.use('a', 2000)).toBe(true); // expired: could no longer verify anyway
    for (const name of ['b', 'c', 'd', 'e']) expect(spent.use(name, 2001)).toBe(true);
    expect(spent.use('e', 2002)).toBe(false);
    expect(spent.use('b', 2002)).toBe(true); // the oldest, forgotten at the bound
  });
});
