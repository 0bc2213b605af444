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
/** Variables bash sets or updates itself (`PWD` after each `cd`, `RANDOM` on each read, ...). */
const SHELL_SET =
  /^(?:PWD|OLDPWD|DIRSTACK|RANDOM|SRANDOM|SECONDS|LINENO|EPOCHSECONDS|EPOCHREALTIME|BASHPID|PPID|UID|EUID|GROUPS|HOSTNAME|HOSTTYPE|OSTYPE|MACHTYPE|SHLVL|SHELLOPTS|BASHOPTS|PIPESTATUS|OPTIND|HISTCMD|FUNCNAME|IFS|BASH|BASH_.*)$/;

/**
 * Expands one word node as bash would, but only the parts Toolwright can know exactly: literal text,
 * quotes, escapes, permitted `$NAME` / `${NAME}` with the value this shell will see, and the marking
 * of glob characters. Everything else (substitutions, `${X:-y}`, `$1`, `$'..'`, brace and tilde
 * expansion) is refused with a reason.
 * @example `"my dir"/*.ts` → value `my dir/*.ts`, pattern `my\ dir/*.ts`
 * @example `"$X"` with X=`a b` → value `a b` (quoted: one word, no glob)
 */
export function expandWord(node: SyntaxNode, context: WordContext): ExpandedWord {
  // Outside POSIX mode bash expands `~` after the `=` (and after each `:`) of an argument shaped
  // like an assignment: `echo a=~/x` prints `a=/home/me/x`.
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(node.text) && unquotedText(node).some((text) => /[=:]~/.test(text)))
    return { ok: false, reason: `bash expands the '~' in '${node.text}' (after '=' or ':') to a home directory; quote the '~' or write the path` };
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
    case 'number':
      return appendUnquotedText(node.text, state, first);
    case 'raw_string':
      appendQuoted(node.text.slice(1, -1), state);
      return undefined;
    case 'string': {
      const children = node.children.filter((c) => c !== null);
      for (const [i, child] of children.entries()) {
        if (!child.isNamed) {
          if (child.type === '"') continue;
          // `"cost: $"`: a `$` right before the closing quote is a literal dollar.
          if (child.type === '$' && i === children.length - 2 && children[i + 1]!.type === '"') {
            appendQuoted('$', state);
            continue;
          }
          return strayToken(child, node);
        }
        // Inside double quotes a backslash escapes only $ ` " \ and newline; backslash-newline is removed.
        if (child.type === 'string_content')
          appendQuoted(
            child.text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c)),
            state,
          );
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
      let openBracket = false;
      const children = node.children.filter((c) => c !== null);
      for (let i = 0; i < children.length; i++) {
        const child = children[i]!;
        if (!child.isNamed) {
          // `x$`: a `$` that ends the word is a literal dollar; `x$"y"` is a translated string.
          if (child.type === '$' && i === children.length - 1) {
            appendQuoted('$', state);
            continue;
          }
          return strayToken(child, node, children[i + 1]);
        }
        if (child.type !== 'word') {
          const problem = appendWord(child, context, state, first && index++ === 0);
          if (problem) return problem;
          continue;
        }
        // tree-sitter splits unquoted text at brackets (`[n]otes` is `[`, `n`, `]`, `otes`): bash reads one run.
        let text = child.text;
        while (children[i + 1]?.type === 'word') text += children[++i]!.text;
        if (openBracket && /\]/.test(text.replace(/\\./gs, '')))
          return `bash reads '${node.text}' as a glob whose bracket expression holds quoted or expanded text; quote the whole word, or write the bracket unquoted`;
        const problem = appendUnquotedText(text, state, first && index++ === 0);
        if (problem) return problem;
        openBracket ||= unclosedBracket(text);
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
  if (SHELL_SET.test(name))
    return { reason: `bash sets $${name} itself and changes it as the line runs, so its value is not known when the line is judged; write the value itself` };
  const value = context.variables.get(name);
  if (value === undefined) return { reason: `the variable ${name} is not set in this shell; write the value itself` };
  return value;
}

/** An unquoted run of a word: tilde and brace expansion refused, the rest appended (`appendUnquoted`). */
function appendUnquotedText(text: string, state: WordState, first: boolean): string | undefined {
  if (first && text.startsWith('~')) return `tilde expansion ('${text}') is not allowed; write the path relative to the workspace`;
  const unescaped = text.replace(/\\./gs, '');
  if (/\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(unescaped)) return `brace expansion ('${text}') is not allowed; quote the braces or list the words`;
  if (/[{}]/.test(unescaped))
    return `unquoted braces ('${text}') are not allowed: bash reads '{' and '}' as a command group or brace expansion in places; quote them`;
  appendUnquoted(text, state);
  return undefined;
}

/** Whether unquoted text opens a `[` that it does not close (bash may close it further on in the word). */
function unclosedBracket(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '[') {
      const end = bracketEnd(text, i);
      if (end === -1) return true;
      i = end;
    }
  }
  return false;
}

/** Unquoted text: backslash escapes a character; `*`, `?` and bracket expressions are glob syntax. */
function appendUnquoted(text: string, state: WordState): void {
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && text[i + 1] === '\n') {
      i++; // a line continuation: bash removes both characters
    } else if (char === '\\' && i + 1 < text.length) {
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

/** The text of a word's unquoted parts (its `word` leaves), where `~`, globs and braces are live. */
export function unquotedText(node: SyntaxNode): string[] {
  if (node.type === 'word') return [node.text];
  if (node.type !== 'concatenation') return [];
  return node.namedChildren.flatMap((child) => (child ? unquotedText(child) : []));
}

/**
 * A token the parser left unnamed inside a word, which bash reads otherwise: `$"..."` is a string
 * translated through the locale's message catalogue, not a `$` and a string.
 */
export function strayToken(token: SyntaxNode, word: SyntaxNode, next?: SyntaxNode | null): string {
  if (token.type === '$' && next?.type === 'string' && next.startIndex === token.endIndex)
    return `$"..." strings ('${token.text}${next.text}') are translated through the locale by bash; use plain quotes`;
  return `the '${token.text}' in '${word.text}' is read differently by bash than by the parser; quote it`;
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
