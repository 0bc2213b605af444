import { describe, expect, it } from 'vitest';
import { BearerAuth } from './bearer-auth.js';

describe(BearerAuth, () => {
  const auth = new BearerAuth('s3cret-token');

  it.for(['Bearer s3cret-token', 'bearer s3cret-token', 'BEARER  s3cret-token ', 'Bearer\ts3cret-token'])('accepts %j', (header) => {
    expect(auth.check(header)).toBe('ok');
  });

  it('says whether the token was missing or wrong', () => {
    expect(auth.check(undefined)).toBe('missing');
    for (const header of [
      'Bearer s3cret-toke',
      'Bearer s3cret-token2',
      'Bearer S3CRET-TOKEN',
      'Basic czNjcmV0LXRva2Vu',
      's3cret-token',
      'Bearer',
      'Bearer ',
      'Bearer s3cret-token extra',
      '',
    ]) {
      expect(auth.check(header), header).toBe('invalid');
    }
  });

  it('refuses tokens an Authorization header cannot carry', () => {
    expect(() => new BearerAuth('')).toThrow(/empty/);
    expect(() => new BearerAuth('two words')).toThrow(/whitespace/);
    expect(() => new BearerAuth('line\n')).toThrow(/whitespace/);
  });
});
