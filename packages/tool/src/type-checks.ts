/** Types whose values have no JSON form: a tool can neither receive nor return them. */
export type NoJsonForm =
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- matched against, never called: every callable, also values typed `Function`
  | Function
  | symbol
  | bigint
  | Map<unknown, unknown>
  | ReadonlyMap<unknown, unknown>
  | Set<unknown>
  | ReadonlySet<unknown>
  | WeakMap<object, unknown>
  | WeakSet<object>
  | Promise<unknown>;

/**
 * `true` when every value of `T` has a JSON form, `false` (or `boolean`) when some do not.
 * Depth-limited: the transformer checks the rest precisely, with the offending property path.
 */
export type JsonCompatible<T, Depth extends unknown[] = []> = Depth['length'] extends 5
  ? true
  : unknown extends T
    ? true // `unknown` and `any` take any JSON value: the transformer warns (an error under `strictJson`)
    : T extends undefined | null | string | number | boolean | Date
      ? true
      : T extends NoJsonForm
        ? false
        : T extends readonly (infer E)[]
          ? JsonCompatible<E, [...Depth, unknown]>
          : T extends object
            ? false extends { [K in keyof T]-?: K extends string ? JsonCompatible<T[K], [...Depth, unknown]> : false }[keyof T]
              ? false
              : true
            : false;

/** Any function Toolwright can turn into a tool at the type level: async (returns a Promise), no `this`. */
export type ToolFunction = (this: void, ...args: never[]) => Promise<unknown>;

/** Any function: the constraint of `tool()`'s argument, which it only checks, never calls. */
export type AnyFunction = (...args: never[]) => unknown;

/**
 * The problems TypeScript can see in a tool signature, each spelled as a readable type error.
 * `tool()` constrains its argument only by `AnyFunction`: a constraint with typed parameters (`any[]`)
 * would contextually type them (`limit = 100` would become `any`), so the checks live here.
 */
export type ToolSignatureCheck<F> = F extends (this: infer This, ...args: infer _) => infer R
  ? unknown extends This
    ? R extends PromiseLike<unknown>
      ? F extends ToolFunction
        ? ParameterChecks<F>
        : never
      : { 'Toolwright: a tool must be an async function (it must return a Promise)': never }
    : { "Toolwright: a tool cannot declare a 'this' parameter": never }
  : { 'Toolwright: a tool must be a function': never };

type ParameterChecks<F extends ToolFunction> = number extends Parameters<F>['length']
  ? { 'Toolwright: rest parameters cannot be described as named tool arguments': never }
  : false extends JsonCompatible<Parameters<F>[number]>
    ? { 'Toolwright: every parameter type needs a JSON form (no functions, symbol, bigint, Map, Set or Promise)': never }
    : false extends JsonCompatible<Awaited<ReturnType<F>> extends void ? undefined : Awaited<ReturnType<F>>>
      ? { 'Toolwright: the resolved return type needs a JSON form': never }
      : unknown;
