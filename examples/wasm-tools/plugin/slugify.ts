// The slugify tool's implementation: {"text": string, "maxLength"?: number} -> {"slug": string}.
// Lower-case ASCII letters and digits joined by single hyphens; accented Latin letters become their base
// letters (é -> e, ß -> ss); anything else separates words. A slug longer than `maxLength` (default 80) is
// cut at its last hyphen when that keeps at least half of it, else at the limit.
import { numberField, result, stringField } from './lib/json';
export { alloc } from './lib/json';

const DEFAULT_MAX_LENGTH = 80;

// U+00C0 to U+017F (Latin-1 letters and Latin Extended-A): each one's base letter, `-` for a separator
// (× and ÷), `*` for a letter written with two (see `twoLetters`).
const LATIN =
  'aaaaaa*ceeeeiiiidnooooo-ouuuuy**aaaaaa*ceeeeiiiidnooooo-ouuuuy*y' +
  'aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii**jjkkkllllllllllnnnnnnnnnoooooo**rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs';

function twoLetters(c: i32): string {
  if (c == 0xc6 || c == 0xe6) return 'ae';
  if (c == 0xde || c == 0xfe) return 'th';
  if (c == 0xdf) return 'ss';
  if (c == 0x132 || c == 0x133) return 'ij';
  return 'oe'; // Œ, œ
}

/** What `c` becomes in a slug: lower-case ASCII letters or digits, or "" when it separates words. */
function fold(c: i32): string {
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) return String.fromCharCode(c);
  if (c >= 0x41 && c <= 0x5a) return String.fromCharCode(c + 0x20);
  if (c < 0xc0 || c - 0xc0 >= LATIN.length) return '';
  const letter = LATIN.charCodeAt(c - 0xc0);
  if (letter == 0x2d) return '';
  return letter == 0x2a ? twoLetters(c) : String.fromCharCode(letter);
}

export function slugify(text: string, maxLength: i32): string {
  const parts = new Array<string>();
  let length = 0;
  let separated = false;
  // One letter past the limit is enough to tell whether the cut falls inside a word.
  for (let i = 0; i < text.length && length <= maxLength; i++) {
    const letters = fold(text.charCodeAt(i));
    if (letters.length == 0) {
      separated = length > 0;
      continue;
    }
    if (separated) {
      parts.push('-');
      length++;
      separated = false;
    }
    parts.push(letters);
    length += letters.length;
  }
  const slug = parts.join('');
  if (slug.length <= maxLength) return slug;
  const cut = slug.substring(0, maxLength);
  if (slug.charCodeAt(maxLength) == 0x2d) return cut;
  const hyphen = cut.lastIndexOf('-');
  return hyphen >= maxLength / 2 ? cut.substring(0, hyphen) : cut.endsWith('-') ? cut.substring(0, maxLength - 1) : cut;
}

export function call(pointer: usize, length: i32): i64 {
  const json = String.UTF8.decodeUnsafe(pointer, <usize>length);
  const maxLength = <i32>Math.max(1, Math.min(numberField(json, 'maxLength', DEFAULT_MAX_LENGTH), 1000));
  return result('{"slug":"' + slugify(stringField(json, 'text'), maxLength) + '"}');
}
