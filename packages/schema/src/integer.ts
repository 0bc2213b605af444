declare const integerBrand: unique symbol;

/**
 * A number that must be a whole number: emitted as `{ "type": "integer" }`.
 * Plain numbers stay assignable to it, so callers need no casts.
 * The transformer recognises it by its brand property, named after `integerBrand`.
 * @example export const repeat = tool(async function repeat(times: Integer) {});
 */
export type Integer = number & { readonly [integerBrand]?: 'Integer' };
