/** Regexes that backtrack exponentially (or close to it) on the text beside them: each runs for minutes in a JavaScript engine. */
export const CATASTROPHIC: readonly (readonly [string, string])[] = [
  ['^(a+)+(?=b)', 'a'.repeat(35)],
  ['^(a+)+$', `${'a'.repeat(32)}!`],
  ['(a|a)*b', 'a'.repeat(40)],
  ['(a|aa)+$', `${'a'.repeat(60)}!`],
  ['^(\\w+\\s?)+$', `${'word '.repeat(12)}!`],
  ['(a*)*b', 'a'.repeat(40)],
  ['(x+x+)+y', 'x'.repeat(40)],
  ['^(a|a?)+$', `${'a'.repeat(40)}!`],
  ['^(a+)\\1*(a+)+\\2$', `${'a'.repeat(40)}!`],
];
