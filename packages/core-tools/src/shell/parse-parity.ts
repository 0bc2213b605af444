import type { SyntaxNode } from './bash-parser.js';

/** Words bash reads as reserved when they stand unquoted where a command name would be. */
const RESERVED = new Set([
  '!',
  '[[',
  ']]',
  '{',
  '}',
  'case',
  'coproc',
  'do',
  'done',
  'elif',
  'else',
  'esac',
  'fi',
  'for',
  'function',
  'if',
  'in',
  'select',
  'then',
  'time',
  'until',
  'while',
]);

/**
 * Where tree-sitter-bash reads the command line otherwise than bash does, or undefined. The judge
 * may only trust a tree that bash would build too (bash itself has already rejected what it cannot
 * parse; see `parseCommandLine`):
 * - a reserved word the parser took for a command name (`time ls`: bash times `ls`, it runs no
 *   program called `time`; `done`, `esac`: syntax errors);
 * - a line continuation between two tokens: bash removes backslash-newline before it splits words,
 *   so `a\⏎b` is the one word `ab` where the parser saw `a` and `b`;
 * - text between tokens that the tree does not account for (anything but blanks, newlines and
 *   continuations), which would be run but never judged.
 * @example parseDivergence(parse('time ls')) → "bash reads the unquoted 'time' as its keyword ..."
 */
export function parseDivergence(root: SyntaxNode): string | undefined {
  const source = root.text;
  const offset = root.startIndex;
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'command_name') {
      const name = node.firstChild;
      if (name?.type === 'word' && RESERVED.has(name.text)) return reservedWord(name.text);
    }
    const children = node.children.filter((c) => c !== null);
    // The gaps inside a node: before its first child, between children, after its last.
    let at = node.startIndex;
    for (const next of [...children, undefined]) {
      const end = next ? next.startIndex : node.endIndex;
      if (children.length > 0 && end > at) {
        const problem = gapProblem(source.slice(at - offset, end - offset), node);
        if (problem) return problem;
      }
      if (next) at = next.endIndex;
    }
    stack.push(...children);
  }
  return undefined;
}

function gapProblem(gap: string, parent: SyntaxNode): string | undefined {
  const joined = gap.replace(/\\\n/g, '');
  if (/[^ \t\n]/.test(joined))
    return `bash would read '${excerpt(JSON.stringify(joined.trim()).slice(1, -1))}' in '${excerpt(parent.text)}', which the parser skipped; quote it or remove it`;
  // In a concatenation the parts are one word either way; elsewhere the continuation joins two tokens.
  if (joined === '' && gap !== '' && parent.type !== 'concatenation')
    return `a line continuation (backslash-newline) in '${excerpt(parent.text)}' joins what is around it into one word in bash; put a space before the backslash`;
  return undefined;
}

function reservedWord(word: string): string {
  if (word === 'time')
    return "bash reads the unquoted 'time' as its keyword, which times the pipeline after it (no program called time runs); leave it out, or quote it ('time') to run the program";
  return `bash reads the unquoted '${word}' as a reserved word (part of a compound command), not as a command name; quote it to run a program of that name`;
}

function excerpt(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
