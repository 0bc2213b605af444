import { getToolDeclaration, TOOL_OPTIONS, type ToolDeclaration } from '@toolwright/schema';
import { requireDeclaration } from './require-declaration.js';

type AnyFunction = (...args: unknown[]) => unknown;

export interface ToolkitMethod {
  key: string;
  method: AnyFunction;
  declaration: ToolDeclaration;
}

/**
 * The `@tool()` methods of a toolkit, read from its prototype chain (a subclass's definition wins);
 * a marked method without a declaration is an error naming `Class.method`.
 */
export function toolkitMethods(prototype: object, className: string): ToolkitMethod[] {
  const found: ToolkitMethod[] = [];
  const seen = new Set<string>();
  for (let proto: object | null = prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || seen.has(key)) continue;
      const method: unknown = Object.getOwnPropertyDescriptor(proto, key)?.value;
      if (typeof method !== 'function' || !(TOOL_OPTIONS in method || getToolDeclaration(method))) continue;
      seen.add(key);
      found.push({ key, method: method as AnyFunction, declaration: requireDeclaration(method, `${className}.${key}`) });
    }
  }
  return found;
}
