import type { SyntaxNode } from './bash-parser.js';
import type { ShellConstruct } from './shell-policy.js';

/** What a word may use, and the values the variables it reads have. */
export interface WordContext {
  permit: ReadonlySet<ShellConstruct>;
  /** The variables a permitted expansion may read (unknown names are refused, never expanded to ''). */
  variables: ReadonlyMap<string, string>;
}

/**
 * A word after quote removal and variable expansion. `pattern` is set when the word holds an
 * unquoted glob: it is the word as a picomatch pattern (every quoted or escaped character escaped,
 * `/` kept as the separator), to be expanded against the file system before anything is judged.
 */
export type ExpandedWord = { ok: true; value: string; pattern?: string; fromVariable: boolean } | { ok: false; reason: string };

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Expands one word node as bash would, but only the parts Toolwright can know exactly: literal text,
 * quotes, escapes, permitted `$NAME` / `${NAME}` with the value this shell will see, and the marking
 * of glob characters. Everything else (substitutions, `${X:-y}`, `$1`, `$'..'`, brace and tilde
 * expansion) is refused with a reason.
 * @example `"my dir"/*.ts` → value `my dir/*.ts`, pattern `my\ dir/*.ts`
 * @example `"$X"` with X=`a b` → value `a b` (quoted: one word, no glob)
 */
export function expandWord(node: SyntaxNode, context: WordContext): ExpandedWord {
  const state = { value: '', pattern: '', glob: false, fromVariable: false };
  const problem = appendWord(node, context, state, true);
  if (problem) return { ok: false, reason: problem };
  if (state.glob && !context.permit.has('glob'))
    return { ok: false, reason: `globs ('${node.text}') are not allowed here; list the files or use the glob tool` };
  return { ok: true, value: state.value, fromVariable: state.fromVariable, ...(state.glob ? { pattern: state.pattern } : {}) };
}

interface WordState {
  value: string;
  pattern: string;
  glob: boolean;
  fromVariable: boolean;
}

function appendWord(node: SyntaxNode, context: WordContext, state: WordState, first: boolean): string | undefined {
  switch (node.type) {
    case 'word':
    case 'number': {
      const text = node.text;
      if (first && text.startsWith('~')) return `tilde expansion ('${text}') is not allowed; write the path relative to the workspace`;
      if (/[{}]/.test(text.replace(/\\./gs, ''))) return `brace expansion ('${text}') is not allowed; quote the braces or list the words`;
      appendUnquoted(text, state);
      return undefined;
    }
    case 'raw_string':
      appendQuoted(node.text.slice(1, -1), state);
      return undefined;
    case 'string': {
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === 'string_content') appendQuoted(child.text.replace(/\\([$`"\\\n])/g, '$1'), state);
        else if (child.type === 'simple_expansion' || child.type === 'expansion') {
          const value = variableValue(child, context);
          if (typeof value !== 'string') return value.reason;
          appendQuoted(value, state);
          state.fromVariable = true;
        } else return refusedPart(child).reason;
      }
      return undefined;
    }
    case 'concatenation': {
      let index = 0;
      for (const child of node.namedChildren) {
        if (!child) continue;
        const problem = appendWord(child, context, state, first && index++ === 0);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'simple_expansion':
    case 'expansion': {
      const value = variableValue(node, context);
      if (typeof value !== 'string') return value.reason;
      // Unquoted, bash would split the value into words and glob each: refuse values where that matters.
      if (/[\s*?[\]]/.test(value)) return `the unquoted expansion '${node.text}' would be split or globbed by the shell; quote it ("${node.text}")`;
      appendQuoted(value, state);
      state.fromVariable = true;
      return undefined;
    }
    default:
      return refusedPart(node).reason;
  }
}

function variableValue(node: SyntaxNode, context: WordContext): string | { reason: string } {
  if (!context.permit.has('variable-expansion')) return refusedPart(node);
  const name = node.type === 'simple_expansion' ? node.text.slice(1) : (/^\$\{([^}]*)\}$/.exec(node.text)?.[1] ?? '');
  if (!VARIABLE_NAME.test(name)) return { reason: `only plain variable expansions ($NAME or \${NAME}) are allowed, not '${node.text}'` };
  const value = context.variables.get(name);
  if (value === undefined) return { reason: `the variable ${name} is not set in this shell; write the value itself` };
  return value;
}

/** Unquoted text: backslash escapes a character; `*`, `?` and bracket expressions are glob syntax. */
function appendUnquoted(text: string, state: WordState): void {
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length) {
      appendQuoted(text[++i]!, state);
    } else if (char === '*' || char === '?') {
      state.value += char;
      state.pattern += char;
      state.glob = true;
    } else if (char === '[' && bracketEnd(text, i) !== -1) {
      const end = bracketEnd(text, i);
      const bracket = text.slice(i, end + 1);
      state.value += bracket;
      state.pattern += bracket;
      state.glob = true;
      i = end;
    } else {
      appendQuoted(char, state);
    }
  }
}

/** Quoted (or escaped) text matches only itself: every character but letters, digits and `/` is escaped. */
function appendQuoted(text: string, state: WordState): void {
  state.value += text;
  state.pattern += text.replace(/[^A-Za-z0-9/]/g, (c) => `\\${c}`);
}

/** Where a bracket expression opened at `start` closes (`]` right after `[` or `[!` is literal), or -1. */
function bracketEnd(text: string, start: number): number {
  let i = start + 1;
  if (text[i] === '!' || text[i] === '^') i++;
  if (text[i] === ']') i++;
  for (; i < text.length; i++) {
    if (text[i] === '/') return -1;
    if (text[i] === '[' && text[i + 1] === ':') {
      const close = text.indexOf(':]', i + 2);
      if (close !== -1) {
        i = close + 1;
        continue;
      }
    }
    if (text[i] === ']') return i;
  }
  return -1;
}

export function refusedPart(node: SyntaxNode): { ok: false; reason: string } {
  switch (node.type) {
    case 'command_substitution':
      return { ok: false, reason: `command substitution ('${node.text}') is not allowed; run that command on its own first` };
    case 'process_substitution':
      return { ok: false, reason: `process substitution ('${node.text}') is not allowed` };
    case 'simple_expansion':
    case 'expansion':
      return { ok: false, reason: `variable expansion ('${node.text}') is not allowed; write the value itself` };
    case 'arithmetic_expansion':
      return { ok: false, reason: `arithmetic expansion ('${node.text}') is not allowed` };
    case 'ansi_c_string':
    case 'translated_string':
      return { ok: false, reason: `$'...' and $"..." strings are not allowed; use plain quotes` };
    default:
      return { ok: false, reason: `'${node.text}' (${node.type.replace(/_/g, ' ')}) is not allowed in a command` };
  }
}

/** A word as bash reads it literally: single-quoted, with `'` written as `'\''`. */
export function quoteWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
