import { describe, expect, it } from 'vitest';
import { escalationOf } from './escalation-of.js';

describe(escalationOf, () => {
  it.for<[string, unknown, string | undefined]>([
    ['a worded escalation', 'it runs "npm ci" outside the kernel sandbox', 'it runs "npm ci" outside the kernel sandbox'],
    ['true', true, 'it asks to run outside the sandbox'],
    ['an object', { why: 'x' }, 'it asks to run outside the sandbox'],
    ['a number', 1, 'it asks to run outside the sandbox'],
    ['undefined', undefined, undefined],
    ['null', null, undefined],
    ['false', false, undefined],
    ['an empty string', '', undefined],
  ])('reads %s', ([, value, expected]) => {
    expect(escalationOf(value)).toBe(expected);
  });
});
