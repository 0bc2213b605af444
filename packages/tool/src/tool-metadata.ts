import type { ToolDeclaration } from '@toolwright/schema';

/**
 * The `reflect-metadata` key under which a `@tool()` method exposes its declaration, for frameworks
 * that discover handlers by metadata (NestJS's `DiscoveryService`, Angular-style injectors):
 * `Reflect.getMetadata(TOOL_METADATA_KEY, prototype, methodName)`.
 */
export const TOOL_METADATA_KEY = 'toolwright:tool';

/** The part of the `reflect-metadata` API that Toolwright writes with; it is never a dependency. */
interface MetadataReflect {
  defineMetadata(key: unknown, value: unknown, target: object, property: string | symbol): void;
  getOwnMetadata(key: unknown, target: object, property: string | symbol): unknown;
}

/**
 * `Reflect` with the metadata API when a polyfill (`reflect-metadata`, `core-js/es7/reflect`) is loaded.
 * Read when a class is decorated, so the polyfill must be imported before the modules declaring tools.
 */
export function metadataReflect(): MetadataReflect | undefined {
  const candidate = Reflect as Partial<MetadataReflect>;
  return typeof candidate.defineMetadata === 'function' && typeof candidate.getOwnMetadata === 'function' ? (candidate as MetadataReflect) : undefined;
}

/** Defines the declaration on `target` (a prototype, or a class for static methods) under `key`. */
export function exposeToolMetadata(reflect: MetadataReflect, target: object, key: string | symbol, declaration: ToolDeclaration): void {
  if (reflect.getOwnMetadata(TOOL_METADATA_KEY, target, key) !== declaration) reflect.defineMetadata(TOOL_METADATA_KEY, declaration, target, key);
}

/**
 * The object in `instance`'s prototype chain (or `instance` itself, for a class) that owns `method`
 * under `key`: a subclass that overrides the method without `@tool()` must not inherit its metadata.
 */
export function ownerOf(instance: object, key: string | symbol, method: unknown): object | undefined {
  for (let owner: object | null = instance; owner; owner = Object.getPrototypeOf(owner) as object | null) {
    if (Object.getOwnPropertyDescriptor(owner, key)?.value === method) return owner;
  }
  return undefined;
}
