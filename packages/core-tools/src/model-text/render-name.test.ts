import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderName, renderText } from './render-name.js';

/** Line breaks of any kind a reader may split on. */
const LINE_BREAK = /[\n\r\u000b\u000c\u0085\u2028\u2029]/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe(renderName, () => {
  it.for<[string, string]>([
    ['src/index.ts', 'src/index.ts'],
    ['naïve café/日本.md', 'naïve café/日本.md'],
    ['evil\nname.txt', '"evil\\nname.txt"'],
    ['tab\tand\\slash', '"tab\\tand\\\\slash"'],
    ['esc\u001b[31m', '"esc\\u001b[31m"'],
    ['rlo\u202etxt.exe', '"rlo\\u202etxt.exe"'],
    ['line\u2028sep', '"line\\u2028sep"'],
    ['12:looks like a match', '"12:looks like a match"'],
    ['[no files match]', '"[no files match]"'],
    ['"quoted"', '"\\"quoted\\""'],
    ['a: b', '"a: b"'],
    ['a -> b', '"a -> b"'],
    ['size  (12 bytes)', '"size  (12 bytes)"'],
    [' padded ', '" padded "'],
    ['--', '"--"'],
  ])('renders case %# as %s', ([name, shown]) => {
    expect(renderName(name)).toBe(shown);
  });

  it('shows a name as it is or as a JSON string of it, never with a line break or control character (property)', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom('\n', '\r', '\t', '\u2028', '\u202e', '\u0085', '"', '\\', ':', ' ', '-', '[', '>'),
            fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
          ),
        }),
        (name) => {
          const shown = renderName(name);
          expect(shown).not.toMatch(LINE_BREAK);
          expect(shown).not.toMatch(CONTROL);
          if (shown !== name) expect(JSON.parse(shown)).toBe(name);
          else expect(shown.startsWith('"')).toBe(false);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe(renderText, () => {
  it('quotes only text with a line break or control character', () => {
    expect(renderText('Node.js: fs [docs]')).toBe('Node.js: fs [docs]');
    expect(renderText('git log\nrm -rf /')).toBe('"git log\\nrm -rf /"');
    expect(JSON.parse(renderText('a\u2029"b"'))).toBe('a\u2029"b"');
  });
});
