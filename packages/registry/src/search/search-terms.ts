/**
 * Words that say nothing about which tool fits ("the", "a", "file to"...): a query made only of them finds
 * nothing rather than every tool. Kept short on purpose: words such as "list", "get" or "new" name what tools do.
 */
const STOP_WORDS = new Set(
  (
    'a an and any are as at be by can do does for from how i in into is it its me my of on or our please ' +
    'should so some that the their them then there these this those to tool tools use using was we what when where which ' +
    'who why will with would you your'
  ).split(' '),
);

/** Runs of letters and digits; `_`, `-`, `.` and anything else separate words. */
const WORD = /[\p{L}\p{N}]+/gu;
/** Identifiers joined by `_`, `-` or `.` (`file_read`, `web-fetch`): also kept whole, so a wire name matches its tool. */
const IDENTIFIER = /[\p{L}\p{N}]+(?:[_.-][\p{L}\p{N}]+)+/gu;

/**
 * The words of a text, for both the index and the query: identifiers are split at `_`, `-`, `.` and camelCase
 * humps and also kept whole (lowercased later by `normalizeTerm`).
 * @example searchTokens('Reads fileRead and file_read') // ['Reads', 'file', 'Read', 'fileRead', 'file', 'read', 'file_read']
 */
export function searchTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text.match(WORD) ?? []) {
    const humps = word.split(/(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u);
    tokens.push(...humps);
    if (humps.length > 1) tokens.push(word);
  }
  for (const identifier of text.match(IDENTIFIER) ?? []) tokens.push(identifier.replace(/[-.]/g, '_'));
  return tokens;
}

/**
 * One token as indexed and searched: lowercase, a plural made singular (so "files" finds "file"), or `null` for a
 * stop word or a single character.
 * @example normalizeTerm('Files') // 'file'
 * @example normalizeTerm('the') // null
 */
export function normalizeTerm(token: string): string | null {
  const term = token.toLowerCase();
  if (term.length < 2 || STOP_WORDS.has(term)) return null;
  // A light stemmer: "files"/"file", "entries"/"entry", "issues"/"issue"; not "status", "address" or "class".
  if (term.length > 4 && term.endsWith('ies')) return `${term.slice(0, -3)}y`;
  if (term.length > 3 && term.endsWith('s') && !/(ss|us|is)$/.test(term)) return term.slice(0, -1);
  return term;
}
