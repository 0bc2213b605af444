import type { ToolDeclaration } from './tool-declaration.js';

/**
 * The well-known symbol under which a tool function carries its generated declaration.
 * `Symbol.for` makes it shared by every copy of every Toolwright package in a process,
 * so a declaration attached by one build is found by another's registry.
 */
export const TOOL_DECLARATION = Symbol.for('toolwright.declaration');

/**
 * The mark `tool()` and `@tool()` leave on a function (its options), with or without a generated
 * declaration: a registry tells a tool compiled without the transformer from a function that is no tool.
 */
export const TOOL_OPTIONS = Symbol.for('toolwright.options');

/** Reads the declaration the transformer (or a generated `tools.gen.ts`) attached to a function. */
export function getToolDeclaration(fn: unknown): ToolDeclaration | undefined {
  if (typeof fn !== 'function') return undefined;
  const value = (fn as unknown as Record<symbol, unknown>)[TOOL_DECLARATION];
  return isToolDeclaration(value) ? value : undefined;
}

/** Attaches a declaration to a function (non-enumerable, non-writable) and returns the function. */
export function attachToolDeclaration<F extends (...args: never[]) => unknown>(fn: F, declaration: ToolDeclaration): F {
  Object.defineProperty(fn, TOOL_DECLARATION, { value: declaration, enumerable: false, configurable: true, writable: false });
  return fn;
}

function isToolDeclaration(value: unknown): value is ToolDeclaration {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ToolDeclaration>;
  return typeof candidate.name === 'string' && typeof candidate.parameters === 'object' && typeof candidate.metadata === 'object';
}
