import { ts } from '../front-end/typescript.js';
import type { DocInfo, JsDocReader } from '../jsdoc-reader.js';
import type { Reporter } from '../reporter.js';

/** Argument names a provider accepts as property keys. */
export const ARGUMENT_NAME_PATTERN = /^[a-zA-Z0-9_.-]{1,64}$/;

/**
 * Argument names given with `@wire`, by parameter name, for parameters whose name is not the one the
 * model should send: a reserved word (`function`, `static`) or a name that is no identifier
 * (`max-results`). The rest keep their own names.
 * @example /** Calls a function. @wire fn function *\/ async function call(fn: string) {}   // tool JSDoc: parameter, argument name
 * @example async function search(/** @wire max-results *\/ maxResults?: number) {}        // before the parameter: argument name
 */
export function readWireNames(
  toolDocs: readonly DocInfo[],
  parameters: readonly ts.ParameterDeclaration[],
  docs: JsDocReader,
  reporter: Reporter,
  tool: string,
): Map<string, string> {
  const names = new Map<string, string>();
  const known = new Set(parameters.flatMap((p) => (ts.isIdentifier(p.name) ? [p.name.text] : [])));
  for (const tag of toolDocs.flatMap((d) => d.tags).filter((t) => t.name === 'wire')) {
    const [param, wire, ...rest] = tag.text.split(/\s+/).filter(Boolean);
    if (!param || !wire || rest.length > 0) reporter.report('invalidJsDocTag.wireMissingName', { tag: 'wire', path: tool }, tag.node);
    else if (!known.has(param)) reporter.report('invalidJsDocTag.wireUnknownParameter', { tag: 'wire', path: tool, value: param }, tag.node);
    else names.set(param, wire);
  }
  for (const parameter of parameters) {
    if (!ts.isIdentifier(parameter.name)) continue;
    for (const tag of docs.read(parameter).tags.filter((t) => t.name === 'wire')) {
      const [wire, ...rest] = tag.text.split(/\s+/).filter(Boolean);
      if (!wire || rest.length > 0) reporter.report('invalidJsDocTag.wireMissingName', { tag: 'wire', path: parameter.name.text }, tag.node);
      else names.set(parameter.name.text, wire);
    }
  }
  return names;
}
