import { describe, expect, it } from 'vitest';
import { describeRefusal } from './describe-refusal.js';
import { REFUSAL_CLASSES } from './program-spec.js';

describe(describeRefusal, () => {
  it('words every class, each differently, with and without an option', () => {
    const withOption = REFUSAL_CLASSES.map((c) => describeRefusal({ program: 'p', option: '-x', class: c }));
    const withoutOption = REFUSAL_CLASSES.map((c) => describeRefusal({ program: 'p', class: c }));
    for (const text of [...withOption, ...withoutOption]) expect(text).toMatch(/^\S.{20,}$/);
    expect(new Set(withOption).size).toBe(REFUSAL_CLASSES.length);
    expect(new Set(withoutOption).size).toBe(REFUSAL_CLASSES.length);
  });

  it.for([
    [{ program: 'cp', option: '-L', class: 'follows-links' }, 'cp -L follows symbolic links, which could read outside the workspace'],
    [{ program: 'ls', option: '-L', written: '-laL', class: 'follows-links' }, 'ls -laL (-L) follows symbolic links, which could read outside the workspace'],
    [{ program: 'find', option: '-exec', class: 'runs-programs' }, 'find -exec runs other programs, which cannot be judged before they run'],
    [
      { program: 'env', option: '-x', class: 'unlisted-option', hint: 'use env only to run a command with its plain options' },
      'env -x is not allowed here; use env only to run a command with its plain options',
    ],
    [
      { program: 'xargs', class: 'builds-commands' },
      'xargs is not allowed: it builds commands from its input, which cannot be judged before they run; run the command on the listed files directly',
    ],
    [{ program: 'bash', class: 'never' }, "'bash' is never allowed: it starts another shell, whose commands cannot be judged before they run"],
  ] as const)('%j', ([refusal, text]) => {
    expect(describeRefusal(refusal)).toBe(text);
  });
});
