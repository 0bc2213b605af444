import { escapeTerminalControls } from './terminal-safe.js';

/**
 * A character that shows nothing, or nothing but blank space: whitespace (blanks, newlines, Unicode spaces), every
 * default-ignorable code point (soft hyphen, zero-width characters, variation selectors, tags, fillers), format
 * characters, combining marks (drawn onto the character before), unassigned and private-use code points (whatever
 * a font makes of them), and the blank glyphs that are neither (U+2800 braille blank, the Hangul fillers). A twelfth pass hid
 * the end of a command behind 110 × (32 spaces + U+00AD): each soft hyphen broke a run of spaces into runs too short
 * to collapse.
 */
const BLANK = String.raw`[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cf}\p{M}\p{Cn}\p{Co}\u2800\u115f\u1160\u3164\uffa0]`;

/** A run of more than 32 characters that show nothing (deeper than any indentation). */
const RUN = new RegExp(`${BLANK}{33,}`, 'gu');

/**
 * A call awaiting approval as the person asked should see it: the tool and its arguments as JSON on
 * one line, each run of more than 32 whitespace characters collapsed to a visible marker (`ls src
 * ⟪4,000 spaces⟫; cp -r ...`) so padding cannot push the dangerous part out of view, control
 * characters and newlines escaped (`escapeTerminalControls`, JSON's `\n`), and, after it, the real
 * length of each argument that was collapsed. Both the MCP elicitation and the CLI's terminal prompt
 * use it.
 * @example approvalCallText('shell_exec', { command: `ls${' '.repeat(4000)}; rm x` })
 *   === 'shell_exec {"command":"ls⟪4,000 spaces⟫; rm x"} (command: 4,007 characters, whitespace collapsed)'
 */
export function approvalCallText(tool: string, args: Record<string, unknown>): string {
  const collapsed: string[] = [];
  const shown = collapseDeep(args, '', collapsed);
  const notes = collapsed.length > 0 ? ` (${collapsed.join('; ')}, whitespace collapsed)` : '';
  return `${approvalText(tool)} ${escapeTerminalControls(JSON.stringify(shown) ?? 'null')}${notes}`;
}

/**
 * Any other text shown in an approval prompt (a reason, a path): whitespace runs collapsed and
 * control characters, newlines included, escaped, so it stays on the line it is printed on.
 */
export function approvalText(text: string): string {
  return escapeTerminalControls(collapseRuns(text).replace(/\r?\n/g, '\\n').replace(/\t/g, '\\t'));
}

function collapseDeep(value: unknown, at: string, collapsed: string[]): unknown {
  if (typeof value === 'string') {
    const shown = collapseRuns(value);
    if (shown !== value) collapsed.push(`${approvalText(at || 'value')}: ${value.length.toLocaleString('en-US')} characters`);
    return shown;
  }
  if (Array.isArray(value)) return value.map((item, i) => collapseDeep(item, `${at}[${i}]`, collapsed));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // defineProperty: a `__proto__` key stays a key instead of replacing the prototype.
    Object.defineProperty(out, collapseRuns(key), { value: collapseDeep(child, at ? `${at}.${key}` : key, collapsed), enumerable: true, writable: true });
  }
  return out;
}

function collapseRuns(text: string): string {
  RUN.lastIndex = 0;
  return text.replace(RUN, (run) => `⟪${run.length.toLocaleString('en-US')} ${kind(run)}⟫`);
}

function kind(run: string): string {
  if (/^ +$/.test(run)) return 'spaces';
  if (/^\n+$/.test(run)) return 'newlines';
  if (/^\t+$/.test(run)) return 'tabs';
  return /^\s+$/.test(run) ? 'whitespace characters' : 'blank or invisible characters';
}
