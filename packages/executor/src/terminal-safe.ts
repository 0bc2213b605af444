/**
 * Characters a model or an MCP client may hand to a terminal or a text view that reinterpret what follows:
 * C0 controls other than tab and newline (ESC starts colour, cursor and OSC sequences such as
 * clipboard writes and hyperlinks; BEL, backspace and carriage return overwrite), DEL, the C1
 * controls U+0080–U+009F (a lone U+009B is CSI on many terminals), and the bidi controls that make
 * text display in another order than it reads (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069).
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** `\uXXXX` for one character: in text a visible escape, in a JSON string the same character. */
const unicodeEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * The text with each unsafe character written as a visible `\uXXXX` escape, so a client shows
 * `\u001b[2J` instead of clearing its user's screen.
 * @example escapeTerminalControls('\u001b[31mred\u0007') === '\\u001b[31mred\\u0007'
 */
export function escapeTerminalControls(text: string): string {
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(text)) return text;
  return text.replace(UNSAFE, unicodeEscape);
}

/** What JSON text may hold raw that a terminal acts on: DEL, the C1 controls, the bidi controls, and U+2028/U+2029. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * JSON text (`JSON.stringify`'s: its C0 controls already escaped) with every character above written as a `\uXXXX`
 * escape: the same value to any JSON reader, and nothing a `cat` or `tail -f` of the file hands to a terminal
 * reinterprets (a lone U+009B is CSI on many terminals). Outside strings JSON text is ASCII, so only strings change.
 */
export function escapeTerminalControlsInJson(json: string): string {
  UNSAFE_IN_JSON.lastIndex = 0;
  if (!UNSAFE_IN_JSON.test(json)) return json;
  return json.replace(UNSAFE_IN_JSON, unicodeEscape);
}

/** Whether the text holds a character `escapeTerminalControls` would escape. */
export function hasTerminalControls(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text);
}

/**
 * A JSON value (such as `structuredContent`) with every string and key escaped as
 * `escapeTerminalControls` does. `toJSON` is honoured, as the transport's serialiser would.
 */
export function escapeTerminalControlsDeep(value: unknown): unknown {
  if (typeof value === 'string') return escapeTerminalControls(value);
  if (typeof value !== 'object' || value === null) return value;
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return escapeTerminalControlsDeep(withJson.toJSON());
  if (Array.isArray(value)) return value.map(escapeTerminalControlsDeep);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // defineProperty: a `__proto__` key stays a key instead of replacing the prototype.
    Object.defineProperty(out, escapeTerminalControls(key), { value: escapeTerminalControlsDeep(child), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
