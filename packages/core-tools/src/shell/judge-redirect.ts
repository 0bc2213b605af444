import type { SyntaxNode } from './bash-parser.js';
import type { PathConfinement } from './command-verdict.js';
import type { ShellConstruct } from './shell-policy.js';
import { expandWord, quoteWord, type WordContext } from './shell-word.js';

/** `2>&1` and `>/dev/null` are always fine; other redirections need the `redirection` permit and a workspace path. */
export function judgeRedirect(
  node: SyntaxNode,
  permit: ReadonlySet<ShellConstruct>,
  confine: PathConfinement,
): { ok: true; text: string } | { ok: false; reason: string } {
  const literal: WordContext = { permit: new Set(), variables: new Map() };
  if (node.type === 'heredoc_redirect') return { ok: false, reason: 'here-documents are not allowed' };
  if (node.type === 'herestring_redirect') {
    if (!permit.has('redirection')) return { ok: false, reason: 'here-strings (<<<) are not allowed' };
    const content = node.namedChildren.find((c) => c !== null);
    const word = content ? expandWord(content, literal) : { ok: true as const, value: '' };
    return word.ok ? { ok: true, text: `<<< ${quoteWord(word.value)}` } : word;
  }
  // tree-sitter-bash hangs the words after a redirection on it (`ls > out x`); bash passes them to
  // the command as arguments.
  const [destination, ...more] = node.namedChildren.filter((c) => c !== null && c.type !== 'file_descriptor');
  if (more.length > 0)
    return {
      ok: false,
      reason: `bash passes '${more.map((c) => c!.text).join(' ')}' after the redirection to the command as arguments, which the parser does not; put redirections after the arguments`,
    };
  const operator = node.children.find((c) => c && !c.isNamed)?.type ?? '';
  const descriptor = node.children.find((c) => c?.type === 'file_descriptor')?.text ?? '';
  if (!destination || !/^(?:>|>>|<|&>|&>>|>&|<&|>\|)$/.test(operator) || !/^\d?$/.test(descriptor))
    return { ok: false, reason: `the redirection '${node.text}' is not allowed` };
  if ((operator === '>&' || operator === '<&') && /^[0-2]$/.test(destination.text)) return { ok: true, text: `${descriptor}${operator}${destination.text}` };
  const word = expandWord(destination, literal);
  if (!word.ok) return { ok: false, reason: `${word.reason} (in the redirection '${node.text}')` };
  // bash reads the expanded word of `>&` and `<&`: digits duplicate that descriptor (`>&'3'` writes
  // to fd 3, not to a file named 3), `-` closes it, `3-` moves it.
  if ((operator === '>&' || operator === '<&') && /^(?:\d+-?|-)$/.test(word.value)) {
    if (/^[0-2]$/.test(word.value)) return { ok: true, text: `${descriptor}${operator}${word.value}` };
    return { ok: false, reason: `the redirection '${node.text}' duplicates, closes or moves a file descriptor; only 0, 1 and 2 may be named` };
  }
  if (operator === '<&') return { ok: false, reason: `the redirection '${node.text}' names no file descriptor; use < to read a file` };
  const rendered = `${descriptor}${operator} ${quoteWord(word.value)}`;
  if (word.value === '/dev/null' && operator !== '<&' && operator !== '>&') return { ok: true, text: rendered };
  if (!permit.has('redirection'))
    return { ok: false, reason: `redirection ('${node.text}') is not allowed; use file_write to write files, or ask for the 'redirection' permit` };
  const refused = confine.check(word.value, confine.root);
  return refused ? { ok: false, reason: `the redirection target is refused: ${refused}` } : { ok: true, text: rendered };
}
