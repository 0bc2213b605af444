import { ts } from '../front-end/typescript.js';
import type { JsonSchema } from '@toolwright/schema';
import type { DefinitionRegistry } from '../type-mappers/definition-registry.js';
import { mapMember } from '../type-mappers/map-member.js';
import type { MapContext } from '../type-mappers/type-mapper.js';
import { literalDefault } from './literal-default.js';
import type { Reporter } from '../reporter.js';
import { ARGUMENT_NAME_PATTERN } from './wire-names.js';

/** The declared arguments of a flattened tool: the properties of its one options object. */
export interface FlattenedArguments {
  properties: Record<string, JsonSchema>;
  required: string[];
  /** Property names in declaration order. */
  order: string[];
}

export interface FlattenServices {
  checker: ts.TypeChecker;
  reporter: Reporter;
  /** The context parameters are mapped in (its definitions are the parameters' `$defs`). */
  context: MapContext;
  definitions: DefinitionRegistry;
  /** Parameters given an argument name with `@wire`: meaningless once flattened. */
  wireNames: ReadonlyMap<string, string>;
}

/**
 * The `flatten` option: a tool whose one parameter is an options object declares that object's
 * properties as its arguments, and is called with the object built from them. A union of objects
 * is refused (the arguments of a tool are one object, and providers reject `anyOf` at the top), as
 * is an open object (`Record<string, T>`); an optional parameter is allowed when every property is
 * optional (the tool then receives `{}` when nothing is sent). A destructuring pattern is allowed,
 * and its literal defaults become the properties' `default`.
 * @example tool(async function scrape(options: ScrapeOptions) {}, { flatten: true })   // { url, formats, ... }
 * @example /** @tool @flatten *\/ export async function scrape({ url, formats = ['markdown'] }: ScrapeOptions) {}
 */
export function flattenParameter(fn: ts.SignatureDeclaration, tool: string, nameNode: ts.Node, services: FlattenServices): FlattenedArguments | undefined {
  const { checker, reporter } = services;
  const parameters = fn.parameters.filter((p) => {
    if (!(ts.isIdentifier(p.name) && p.name.text === 'this')) return true;
    reporter.report('thisParameter', { tool }, p);
    return false;
  });
  if (parameters.length !== 1) {
    reporter.report('invalidFlatten.parameterCount', { tool, count: parameters.length }, parameters[1] ?? nameNode);
    return undefined;
  }
  const parameter = parameters[0]!;
  if (parameter.dotDotDotToken) {
    reporter.report('restParameter', { tool, param: parameter.name.getText() }, parameter);
    return undefined;
  }
  const param = ts.isIdentifier(parameter.name) ? parameter.name.text : parameter.name.getText();
  const errorsBefore = reporter.errorCount;
  if (ts.isIdentifier(parameter.name) && services.wireNames.has(param)) reporter.report('invalidFlatten.wireTag', { tool, param }, parameter.name);
  if (parameter.initializer && !isEmptyObjectLiteral(parameter.initializer)) {
    reporter.report('invalidFlatten.initializer', { tool, param }, parameter.initializer);
  }

  const type = checker.getTypeAtLocation(parameter);
  const optional = Boolean(parameter.questionToken || parameter.initializer);
  // A pattern has no name: its properties are named from the root (`url`, not `{ url }.url`).
  const name = ts.isIdentifier(parameter.name) ? param : '';
  const errorsBeforeMapping = reporter.errorCount;
  const member = mapMember({ name, role: 'parameter', type, declaration: parameter, optional }, services.context);
  if (reporter.errorCount > errorsBeforeMapping) return undefined;

  const schema = resolveReference(member.schema, services.definitions);
  const typeText = parameter.type ? parameter.type.getText() : checker.typeToString(type);
  const refuse =
    schema.anyOf || schema.enum || Array.isArray(schema.type)
      ? 'union'
      : schema.type !== 'object'
        ? 'notObject'
        : schema.additionalProperties !== false || !schema.properties
          ? 'openObject'
          : undefined;
  if (refuse) {
    reporter.report(`invalidFlatten.${refuse}`, { tool, param, type: typeText }, parameter.type ?? parameter);
    return undefined;
  }

  const properties: Record<string, JsonSchema> = { ...schema.properties };
  const required = [...(schema.required ?? [])];
  if ((optional || !member.required) && required.length > 0) {
    reporter.report('invalidFlatten.optionalWithRequired', { tool, param, properties: required.map((p) => `'${p}'`).join(', ') }, parameter);
  }
  const objectType = checker.getNonNullableType(type);
  for (const key of Object.keys(properties)) {
    if (ARGUMENT_NAME_PATTERN.test(key)) continue;
    const declaration = checker.getPropertyOfType(objectType, key)?.valueDeclaration;
    const node = declaration && !declaration.getSourceFile().isDeclarationFile ? declaration : parameter;
    reporter.report('invalidFlatten.argumentName', { tool, name: key }, node);
  }
  if (ts.isObjectBindingPattern(parameter.name)) applyPatternDefaults(parameter.name, properties, reporter);
  if (reporter.errorCount > errorsBefore) return undefined;
  return { properties, required, order: Object.keys(properties) };
}

/** A recursive options type maps to a `$ref`: its properties are those of the definition. */
function resolveReference(schema: JsonSchema, definitions: DefinitionRegistry): JsonSchema {
  const prefix = '#/$defs/';
  if (!schema.$ref?.startsWith(prefix)) return schema;
  return definitions.definitions.get(schema.$ref.slice(prefix.length)) ?? schema;
}

/** `{ formats = ['markdown'] }`: a literal default in the pattern is the property's `default`. */
function applyPatternDefaults(pattern: ts.ObjectBindingPattern, properties: Record<string, JsonSchema>, reporter: Reporter): void {
  for (const element of pattern.elements) {
    if (!element.initializer || element.dotDotDotToken) continue;
    const keyNode = element.propertyName ?? element.name;
    const key = ts.isIdentifier(keyNode) || ts.isStringLiteral(keyNode) ? keyNode.text : undefined;
    const property = key === undefined ? undefined : properties[key];
    if (!property || key === undefined) continue;
    const value = literalDefault(element.initializer);
    if (value) properties[key] = { ...property, default: value.value };
    else if (property.default === undefined) reporter.report('defaultNotLiteral', { path: key }, element.initializer);
  }
}

function isEmptyObjectLiteral(expression: ts.Expression): boolean {
  let node = expression;
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) node = node.expression;
  return ts.isObjectLiteralExpression(node) && node.properties.length === 0;
}
