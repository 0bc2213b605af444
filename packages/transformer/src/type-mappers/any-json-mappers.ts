import { ts } from '../front-end/typescript.js';
import type { TypeMapper } from './type-mapper.js';

/**
 * `unknown` and `any`: any JSON value (a webhook body, a JSON passthrough). The model gets no
 * guidance, so this is a warning, and an error under the `strictJson` option.
 * @example async function f(body: unknown) {}   // {}  + TW1104
 */
export const anyJsonMapper: TypeMapper = {
  name: 'any-json',
  supports: (type) => (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0,
  map: (type, ctx) => {
    ctx.report('anyJson.value', ctx.subject(type));
    return {};
  },
};

/**
 * The `object` keyword: any JSON object (index-signature bags are handled by objectMapper).
 * @example async function f(metadata: object) {}   // { "type": "object" }  + TW1104
 */
export const objectKeywordMapper: TypeMapper = {
  name: 'object-keyword',
  supports: (type) => (type.flags & ts.TypeFlags.NonPrimitive) !== 0,
  map: (type, ctx) => {
    ctx.report('anyJson.object', ctx.subject(type));
    return { type: 'object' };
  },
};
