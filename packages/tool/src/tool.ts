import { attachToolDeclaration, TOOL_OPTIONS, type ToolDeclaration, type ToolOptions } from '@toolwright/schema';
import { exposeToolMetadata, metadataReflect, ownerOf } from './tool-metadata.js';
import type { AnyFunction, ToolSignatureCheck } from './type-checks.js';

/**
 * The method decorator produced by `@tool()`: a standard (TC39) decorator, and a legacy one for
 * projects compiled with `experimentalDecorators` (NestJS, TypeORM and other metadata-driven frameworks).
 */
export interface ToolMethodDecorator {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the constraint ClassMethodDecoratorContext puts on its method type
  <This, F extends (this: This, ...args: any[]) => Promise<unknown>>(
    method: F & ToolSignatureCheck<(...args: Parameters<F>) => ReturnType<F>>,
    context: ClassMethodDecoratorContext<This, F>,
  ): void;
  <F extends (...args: never[]) => Promise<unknown>>(
    target: object,
    propertyKey: string | symbol,
    descriptor: TypedPropertyDescriptor<F & ToolSignatureCheck<(...args: Parameters<F>) => ReturnType<F>>>,
  ): void;
}

/**
 * What `tool(fn)` returns: `fn` itself when TypeScript sees nothing wrong with its signature, otherwise
 * a `ToolSignatureError` naming the problem, which cannot be called or registered.
 *
 * The check sits in the return type, not on the parameter: any parameter type mentioning `F` makes
 * TypeScript fix `F` before it has read a context-sensitive function (`async function f(limit = 100)`),
 * losing its real type. The transformer reports the same problems as compile errors at the offending node.
 */
export type CheckedTool<F> = unknown extends ToolSignatureCheck<F> ? F : ToolSignatureError<ToolSignatureCheck<F>>;

/** The type of an invalid tool: its only member names the problem. */
export interface ToolSignatureError<Problem> {
  readonly 'Toolwright: this function cannot be a tool': Problem;
}

/**
 * Declares an `async` function as a tool. The Toolwright transformer reads the function's signature
 * and JSDoc at build time and attaches its declaration; the function itself is returned unchanged.
 * @example export const readFile = tool(async function readFile(path: string, limit?: number) { ... });
 */
export function tool<F extends AnyFunction>(fn: F, options?: ToolOptions): CheckedTool<F>;
/**
 * Declares a class method as a tool (the toolkit form): registering an instance binds its methods.
 * @example class Files { @tool({ tier: 'read-only' }) async readFile(path: string) { ... } }
 */
export function tool(options?: ToolOptions): ToolMethodDecorator;
export function tool(first?: AnyFunction | ToolOptions, second?: ToolOptions | ToolDeclaration, third?: ToolDeclaration): unknown {
  if (typeof first === 'function') {
    markTool(first, second, third);
    return first;
  }
  const options = first;
  const declaration = second as ToolDeclaration | undefined;
  return (method: unknown, context: unknown, descriptor?: PropertyDescriptor) => {
    if (typeof context === 'string' || typeof context === 'symbol') {
      decorateLegacy(method as object, context, descriptor, options, declaration);
    } else {
      decorateStandard(method as AnyFunction, context as DecoratorContext | undefined, options, declaration);
    }
  };
}

/**
 * A TC39 method decorator sees the method, not its class: when a metadata API is loaded, the
 * declaration is defined on the method's owner as the first instance (or the class, for a static
 * method) is initialised.
 */
function decorateStandard(
  method: AnyFunction,
  context: DecoratorContext | undefined,
  options: ToolOptions | undefined,
  declaration: ToolDeclaration | undefined,
): void {
  if (context?.kind !== 'method') {
    throw new TypeError(`@tool() decorates class methods only; '${String(context?.name)}' is a ${context?.kind ?? 'non-method'}.`);
  }
  markTool(method, options, declaration);
  const reflect = metadataReflect();
  if (!reflect || !declaration || context.private) return;
  const key = context.name;
  context.addInitializer(function (this: unknown) {
    const owner = ownerOf(this as object, key, method);
    if (owner) exposeToolMetadata(reflect, owner, key, declaration);
  });
}

/** An `experimentalDecorators` method decorator: `(prototype or class, name, descriptor)`. */
function decorateLegacy(
  target: object,
  key: string | symbol,
  descriptor: PropertyDescriptor | undefined,
  options: ToolOptions | undefined,
  declaration: ToolDeclaration | undefined,
): void {
  const method: unknown = descriptor?.value;
  if (!isFunction(method)) {
    const kind = descriptor === undefined ? 'field' : descriptor.get || descriptor.set ? 'accessor' : 'non-method';
    throw new TypeError(`@tool() decorates class methods only; '${String(key)}' is a ${kind}.`);
  }
  markTool(method, options, declaration);
  const reflect = metadataReflect();
  if (reflect && declaration) exposeToolMetadata(reflect, target, key, declaration);
}

function markTool(fn: AnyFunction, options: ToolOptions | undefined, declaration: ToolDeclaration | undefined): void {
  Object.defineProperty(fn, TOOL_OPTIONS, { value: options ?? {}, enumerable: false, configurable: true });
  if (declaration) attachToolDeclaration(fn, declaration);
}

function isFunction(value: unknown): value is AnyFunction {
  return typeof value === 'function';
}

/** Whether a function was marked with `tool()` or `@tool()`, with or without a generated declaration. */
export function isMarkedTool(fn: unknown): boolean {
  return typeof fn === 'function' && TOOL_OPTIONS in fn;
}
