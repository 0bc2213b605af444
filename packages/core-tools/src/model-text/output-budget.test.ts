import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withBudget } from '../test-support/with-budget.js';
import { count, DEFAULT_OUTPUT_CHARS, headWithin, linesWithin, modelSize, outputBudget, tailWithin } from './output-budget.js';

describe(outputBudget, () => {
  it('is the executor budget inside a call, and the default outside one or when it is not positive', () => {
    expect(outputBudget()).toBe(DEFAULT_OUTPUT_CHARS);
    expect(withBudget(500, outputBudget)).toBe(500);
    expect(withBudget(0, outputBudget)).toBe(DEFAULT_OUTPUT_CHARS);
  });
});

describe(modelSize, () => {
  it.for([
    ['abc', 3],
    ['é', 2],
    ['🙂', 4],
    ['\u001b[31m', 5 + 6],
    ['a\tb\nc', 5],
    ['\u202e', 3 + 6],
  ] as const)('counts %j as %i', ([text, size]) => {
    expect(modelSize(text)).toBe(size);
  });
});

describe(linesWithin, () => {
  it('counts the leading lines that fit, with their newlines', () => {
    expect(linesWithin(['aaa', 'bbb', 'ccc'], 7)).toBe(2);
    expect(linesWithin(['aaa', 'bbb', 'ccc'], 6)).toBe(1);
    expect(linesWithin(['aaa'], 2)).toBe(0);
    expect(linesWithin([], 0)).toBe(0);
  });
});

describe(headWithin, () => {
  it('cuts after a newline in the second half, else at the limit, never inside a surrogate pair', () => {
    expect(headWithin('one\ntwo\nthree', 9)).toBe('one\ntwo\n');
    expect(headWithin('abcdefgh', 5)).toBe('abcde');
    expect(headWithin('ab🙂cd', 5)).toBe('ab');
    expect(headWithin('short', 100)).toBe('short');
  });
});

describe(tailWithin, () => {
  it('starts after a newline in the first half, else at the limit, never inside a surrogate pair', () => {
    expect(tailWithin('one\ntwo\nthree', 10)).toBe('two\nthree');
    expect(tailWithin('abcdefgh', 3)).toBe('fgh');
    expect(tailWithin('ab🙂cd', 5)).toBe('cd');
  });
});

describe(count, () => {
  it("writes a number as toLocaleString('en-US') does, digits grouped by three", () => {
    for (const n of [0, 7, 999, 1000, 1234567, -1234567, 12.5, 1048576, Number.MAX_SAFE_INTEGER, 1e21, Infinity, NaN])
      expect(count(n), String(n)).toBe(n.toLocaleString('en-US'));
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => count(n) === n.toLocaleString('en-US')));
  });
});
