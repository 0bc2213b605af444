/** Characters that start a glob or wildcard in a rule pattern: the literal part of a pattern ends at the first. */
const WILDCARD = /[*?[\]{}()!+@]/;

/**
 * Whether an allow rule *names* a protected path, so that it covers a call touching that path (blanket
 * rules never do). A rule names a path when its pattern either
 * - spells out, before any wildcard, the path itself or the directory holding it: `file_edit(.env)`
 *   names `.env`; `file_write(.git/hooks/*)` names `.git/hooks/pre-commit`; `file_write(.git/**)` names
 *   `.git/config` but not `.git/hooks/pre-commit` (write `.git/hooks/*` for those); or
 * - contains the whole path as a word: `shell_exec(cp * .git/config)` names `.git/config`.
 * `file_write`, `file_write(**)`, `file_*`, `file_write(.g*)`, `file_write(.env*)` and
 * `file_write(sub/**)` (for `sub/.git/config`) name nothing.
 * @example ruleNamesProtectedPath({ pattern: '.git/hooks/*' }, '.git/hooks/pre-commit') // true
 */
export function ruleNamesProtectedPath(rule: { pattern?: string }, protectedPath: string): boolean {
  if (rule.pattern === undefined) return false;
  const target = normalise(protectedPath);
  if (target === '') return false;
  const literal = normalise(rule.pattern.split(WILDCARD, 1)[0]!);
  // Whole segments only: `.git/ho*` keeps `.git/`, `.g*` keeps nothing.
  const prefix = WILDCARD.test(rule.pattern) ? literal.slice(0, literal.lastIndexOf('/') + 1) : literal;
  if (prefix !== '' && (prefix === target || prefix === target.slice(0, target.lastIndexOf('/') + 1))) return true;
  return spelledOut(rule.pattern, target);
}

/** The path appears in the pattern as a whole word: bounded by the ends, `/`, whitespace, `=` or quotes. */
function spelledOut(pattern: string, target: string): boolean {
  for (let at = pattern.indexOf(target); at !== -1; at = pattern.indexOf(target, at + 1)) {
    const before = at === 0 ? '' : pattern[at - 1]!;
    const after = pattern[at + target.length] ?? '';
    if (/^[\s/='"]?$/.test(before) && /^[\s/'"]?$/.test(after)) return true;
  }
  return false;
}

/** `private:/./.git//config` → `.git/config`: scope, leading `./` and `/` and doubled slashes dropped. */
function normalise(value: string): string {
  return value
    .replace(/\\/g, '/')
    .replace(/^(?:private|shared|public):\//, '')
    .replace(/\/{2,}/g, '/')
    .replace(/^(?:\.\/|\/)+/, '');
}
