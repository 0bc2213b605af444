/**
 * Characters a name is never shown with as they are: C0 and C1 controls (line breaks, tabs, escape
 * sequences), DEL, the line and paragraph separators U+2028/U+2029, and the bidirectional controls
 * that make a name display in another order than it reads.
 */
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Names that would read as part of a rendering's own syntax: a quoted name (`"…`), a footer line
 * (`[…]`), a `file_search` match or context line (`12:…`, `12-…`) or group separator (`--`), the
 * separators between a name and what follows it (`: `, ` -> `, `file_list`'s `  (12 bytes)`), and
 * leading or trailing white space (invisible, so two names would look alike).
 */
const SYNTAX_LOOKALIKE = /^["[]|^\d+[:-]|^--$|: | -> | {2}\(|^\s|\s$|^$/;

/** Every character JSON escapes, and the unsafe ones above, which JSON leaves as they are. */
const ESCAPED = /[\u0000-\u001f"\\\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * A file name or path (or a URL) as the model reads it in a tool's text: as it is when that is unambiguous, else as a JSON string literal, so a
 * name can never add a line or an entry to a listing, and `JSON.parse` of what is shown (the
 * arguments the model writes are JSON) gives back the name exactly.
 * @example renderName('src/index.ts') === 'src/index.ts'
 * @example renderName('evil\nname.txt') === '"evil\\nname.txt"'
 * @example renderName('12:secret') === '"12:secret"'
 */
export function renderName(name: string): string {
  return UNSAFE_CHARACTER.test(name) || SYNTAX_LOOKALIKE.test(name) ? quoted(name) : name;
}

/**
 * Text from outside that the model reads as a whole rather than picks out of a line (a page title,
 * a command line, a search snippet): quoted as `renderName` does, but only when it holds an unsafe
 * character, so an ordinary title such as `Node.js: fs` stays as it is.
 * @example renderText('git log\nrm -rf /') === '"git log\\nrm -rf /"'
 */
export function renderText(text: string): string {
  return UNSAFE_CHARACTER.test(text) ? quoted(text) : text;
}

function quoted(text: string): string {
  return `"${text.replace(ESCAPED, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
