import { describe, expect, it } from 'vitest';
import { withCacheFlag } from './with-cache-flag.js';

describe(withCacheFlag, () => {
  it('turns the cache on with its defaults for --cache', () => {
    expect(withCacheFlag({ workspace: '/w' }, true)).toEqual({ workspace: '/w', cache: {} });
  });

  it("keeps the configuration's own cache, and leaves the options alone without --cache", () => {
    const configured = { cache: { dir: '/c' } };
    expect(withCacheFlag(configured, true)).toBe(configured);
    const plain = { workspace: '/w' };
    expect(withCacheFlag(plain, false)).toBe(plain);
    expect(withCacheFlag(plain, undefined)).toBe(plain);
  });
});
