import { describe, expect, it } from 'vitest';
import { approvalCallText, approvalText } from './approval-text.js';

describe(approvalCallText, () => {
  it('shows an ordinary call as its tool and JSON arguments, unchanged', () => {
    expect(approvalCallText('shell_exec', { command: 'ls src', timeoutSeconds: 5 })).toBe('shell_exec {"command":"ls src","timeoutSeconds":5}');
  });

  it('collapses padding that would push the dangerous part out of view, and gives the real length', () => {
    const command = `ls src${' '.repeat(4000)}; cp -r ~/.ssh leak`;
    const text = approvalCallText('shell_exec', { command });
    expect(text).toBe('shell_exec {"command":"ls src⟪4,000 spaces⟫; cp -r ~/.ssh leak"} (command: 4,025 characters, whitespace collapsed)');
    expect(text.length).toBeLessThan(120);
  });

  it.for([
    ['newlines', '\n'.repeat(50), '⟪50 newlines⟫'],
    ['tabs', '\t'.repeat(33), '⟪33 tabs⟫'],
    ['mixed', ' \n\u00a0\u2003'.repeat(10), '⟪40 whitespace characters⟫'],
    ['zero-width', '\u200b'.repeat(100), '⟪100 blank or invisible characters⟫'],
  ] as const)('collapses runs of %s', ([, run, marker]) => {
    expect(approvalCallText('t', { a: `x${run}y` })).toBe(`t {"a":"x${marker}y"} (a: ${run.length + 2} characters, whitespace collapsed)`);
  });

  // Found by a twelfth pass: 110 × (32 spaces + U+00AD) hid `; echo HIDDEN` 3,600 blank columns to the right, each
  // soft hyphen cutting the run of spaces short. Whatever shows nothing counts toward a run.
  it.for([
    ['soft hyphen', '\u00ad'],
    ['zero-width joiner', '\u200d'],
    ['word joiner', '\u2060'],
    ['variation selector', '\ufe0f'],
    ['tag space', '\u{e0020}'],
    ['Hangul filler', '\u3164'],
    ['braille blank', '\u2800'],
    ['Mongolian vowel separator', '\u180e'],
    ['left-to-right mark', '\u200e'],
    ['combining acute accent', '\u0301'],
    ['unassigned code point', '\u0378'],
    ['private-use character', '\ue000'],
    ['noncharacter', '\uffff'],
  ] as const)('collapses padding interleaved with a character that shows nothing (%s)', ([, invisible]) => {
    for (const unit of [`${' '.repeat(32)}${invisible}`, `${invisible}${' '.repeat(5)}`, invisible.repeat(3)]) {
      const text = approvalCallText('shell_exec', { command: `ls${unit.repeat(110)}; echo HIDDEN` });
      expect(text.indexOf('; echo HIDDEN'), text).toBeLessThan(80);
      expect(text).toMatch(/\(command: [\d,]+ characters, whitespace collapsed\)$/);
    }
  });

  it('keeps short runs (indentation) as they are', () => {
    const content = `if x:\n${' '.repeat(24)}y\n`;
    expect(approvalCallText('file_write', { content })).toBe(JSON.stringify({ content }).replace(/^/, 'file_write '));
  });

  it('collapses inside nested arguments and keys, naming where', () => {
    const text = approvalCallText('file_edit', { edits: [{ old: 'a', new: `b${' '.repeat(40)}c` }], [`k${' '.repeat(40)}`]: 1 });
    expect(text).toBe('file_edit {"edits":[{"old":"a","new":"b⟪40 spaces⟫c"}],"k⟪40 spaces⟫":1} (edits[0].new: 42 characters, whitespace collapsed)');
  });

  it('escapes control, C1 and bidi characters, so the prompt cannot be redrawn', () => {
    const text = approvalCallText('shell_exec', { command: 'ls\u001b[2J\u009b\u202etxt' });
    expect(text).not.toMatch(/[\u001b\u009b\u202e]/);
    expect(text).toContain('\\u001b[2J\\u009b\\u202etxt');
  });
});

describe(approvalText, () => {
  it('keeps a reason or a path on one line, collapsed and escaped', () => {
    expect(approvalText(`.git/${' '.repeat(300)}x\nnext\u001b`)).toBe('.git/⟪300 spaces⟫x\\nnext\\u001b');
  });
});
