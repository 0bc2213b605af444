import { describe, expect, it } from 'vitest';
import { CoreToolError } from '../core-tool-error.js';
import { abortError } from './abort-error.js';

describe(abortError, () => {
  it('returns the abort reason itself when it is an Error', () => {
    const reason = new Error('timed out');
    expect(abortError(reason, 'The search was cancelled.')).toBe(reason);
  });

  it.for([undefined, 'gone', 42])('returns a cancelled CoreToolError with the message for the reason %j', (reason) => {
    const error = abortError(reason, 'The search was cancelled.');
    expect(error).toBeInstanceOf(CoreToolError);
    expect(error).toMatchObject({ code: 'cancelled', message: 'The search was cancelled.' });
  });
});
