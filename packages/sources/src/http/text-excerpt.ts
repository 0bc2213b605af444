/** Characters that could reorder or hide text (controls, bidi overrides, zero-width marks): never shown. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

/**
 * A short, single-line excerpt of text an endpoint sent, safe to put in a message: control and format characters
 * become spaces, runs of spaces one, and past `max` characters it is cut with an ellipsis.
 * @example textExcerpt('no such\nroute\u202e', 80) // 'no such route'
 */
export function textExcerpt(text: string, max: number): string {
  const line = text.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, max).join('')}…`;
}
