import { ts } from '../front-end/typescript.js';
import {
  SOURCE_OPTION_KEYS,
  WIRE_NAME_PATTERN,
  toSnakeCase,
  type JsonSchema,
  type ParametersSchema,
  type ToolDeclaration,
  type ToolSource,
  type ToolSourceKind,
} from '@toolwright/schema';
import { DefinitionRegistry } from '../type-mappers/definition-registry.js';
import { mapMember } from '../type-mappers/map-member.js';
import type { SchemaCache } from '../type-mappers/schema-cache.js';
import { createMapContext, mapTypeAt } from '../type-mappers/map-type.js';
import { canonicalSchema } from './canonical-schema.js';
import { flattenParameter } from './flatten-parameter.js';
import type { JsDocReader } from '../jsdoc-reader.js';
import { literalDefault } from './literal-default.js';
import type { Reporter } from '../reporter.js';
import { readExamples } from './tool-examples.js';
import { readOptionsLiteral, readOptionsTags, resolveMetadata } from './tool-options.js';
import { ARGUMENT_NAME_PATTERN, readWireNames } from './wire-names.js';

/** The key that marks a content result (`TOOL_CONTENT` of @toolwright/tool, which the transformer does not load). */
const TOOL_CONTENT_KEY = '~toolwright.content';

/** One `@tool` function found in a source file, in any of the three forms. */
export interface ToolCandidate {
  form: ToolSource['form'];
  /** Where a source form's tool runs (`source.wasm<F>(...)`): its signature is the type argument, its options partly the source's. */
  runs?: ToolSourceKind;
  /** The function whose signature is the tool's: an expression, a declaration or a method. */
  fn: ts.SignatureDeclaration & { body?: ts.Node };
  /** The node whose JSDoc documents the tool (variable statement, method or function declaration). */
  docHost: ts.Node;
  /** The name used to derive the wire name (function, const or method name). */
  functionName: string;
  /** Where name-level problems (duplicates, bad names) are reported. */
  nameNode: ts.Node;
  options?: ts.Expression;
  exportName: string;
  /** The node the source transformer rewrites: the `tool(...)` call or the function declaration. */
  site: ts.Node;
}

export interface AnalysisServices {
  checker: ts.TypeChecker;
  reporter: Reporter;
  docs: JsDocReader;
  rootDir: string;
  isLibFile: (file: ts.SourceFile) => boolean;
  isProjectFile: (file: ts.SourceFile) => boolean;
  /** Schemas of shared types, reused across the tools of the program. */
  cache?: SchemaCache;
}

const MAX_DESCRIPTION = 1024;

/** Builds the declaration of one tool, reporting every problem at the node that causes it. */
export function analyzeSignature(candidate: ToolCandidate, services: AnalysisServices): ToolDeclaration | undefined {
  const { checker, reporter, docs } = services;
  const { fn } = candidate;
  const tool = candidate.functionName;
  const errorsBefore = reporter.errorCount;
  const doc = docs.read(candidate.docHost);
  const fnDoc = candidate.docHost === fn ? doc : docs.read(fn);
  const resolved = resolveMetadata(
    [readOptionsTags(doc), readOptionsTags(fnDoc), readOptionsLiteral(candidate.options, reporter, candidate.runs ? SOURCE_OPTION_KEYS[candidate.runs] : [])],
    reporter,
  );

  if (fn.typeParameters && fn.typeParameters.length > 0) {
    // One error says it all: every type that mentions a type parameter would fail again below.
    reporter.report('genericTool', { tool }, fn.typeParameters[0]!);
    return undefined;
  }
  checkThisUsage(candidate, reporter);

  const signature = checker.getSignatureFromDeclaration(fn);
  const returnType = signature ? checker.getReturnTypeOfSignature(signature) : undefined;
  const isAsync = ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Async;
  if (!isAsync && (!returnType || !isPromiseLike(returnType, checker))) {
    reporter.report('toolMustBeAsync', { tool, type: returnType ? checker.typeToString(returnType) : 'unknown' }, fn.type ?? candidate.nameNode);
  }

  const definitions = new DefinitionRegistry(checker);
  const root = {
    checker,
    reporter,
    docs,
    definitions,
    isLibFile: services.isLibFile,
    isProjectFile: services.isProjectFile,
    ...(services.cache ? { cache: services.cache } : {}),
  };
  const parameterContext = createMapContext({ path: '', role: 'parameter', node: fn }, root);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const parameterOrder: string[] = [];
  const wireNames = readWireNames([doc, fnDoc], fn.parameters, docs, reporter, tool);
  const wireOwners = new Map<string, string>();
  if (resolved.flatten) {
    const flattened = flattenParameter(fn, tool, candidate.nameNode, { checker, reporter, context: parameterContext, definitions, wireNames });
    if (flattened) {
      Object.assign(properties, flattened.properties);
      required.push(...flattened.required);
      parameterOrder.push(...flattened.order);
    }
  }
  for (const parameter of resolved.flatten ? [] : fn.parameters) {
    if (ts.isIdentifier(parameter.name) && parameter.name.text === 'this') {
      reporter.report('thisParameter', { tool }, parameter);
      continue;
    }
    if (parameter.dotDotDotToken) {
      reporter.report('restParameter', { tool, param: parameter.name.getText() }, parameter);
      continue;
    }
    if (!ts.isIdentifier(parameter.name)) {
      reporter.report('destructuredParameter', { tool }, parameter.name);
      continue;
    }
    const name = parameter.name.text;
    const type = checker.getTypeAtLocation(parameter);
    const optional = Boolean(parameter.questionToken || parameter.initializer);
    const member = mapMember({ name, role: 'parameter', type, declaration: parameter, optional }, parameterContext);
    let schema = member.schema;
    const paramText = doc.params.get(name)?.text ?? fnDoc.params.get(name)?.text;
    if (paramText) schema = { ...schema, description: paramText };
    const wire = wireNames.get(name) ?? name;
    if (wireNames.has(name) && !ARGUMENT_NAME_PATTERN.test(wire)) reporter.report('invalidArgumentName.pattern', { name: wire, param: name }, parameter.name);
    const owner = wireOwners.get(wire);
    if (owner !== undefined) reporter.report('invalidArgumentName.duplicate', { name: wire, param: name, other: owner }, parameter.name);
    wireOwners.set(wire, name);
    if (parameter.initializer) {
      const value = literalDefault(parameter.initializer) ?? constantDefault(parameter.initializer, checker);
      if (value) schema = { ...schema, default: value.value };
      else if (schema.default === undefined) reporter.report('defaultNotLiteral', { path: name }, parameter.initializer);
    }
    properties[wire] = schema;
    parameterOrder.push(wire);
    if (member.required) required.push(wire);
  }

  const parameters: ParametersSchema = { type: 'object', properties, required, additionalProperties: false };
  const parameterDefs = definitions.toDefs();
  if (parameterDefs) parameters.$defs = parameterDefs;
  // Examples are checked against parameters that mapped whole: with an error above, the schema is not the tool's.
  if (resolved.examples && reporter.errorCount === errorsBefore) {
    const examples = readExamples(resolved.examples, parameters, reporter, tool);
    if (examples.length > 0) resolved.metadata.examples = examples;
  }

  let returns: JsonSchema | undefined;
  let returnsContent = false;
  if (returnType) {
    const awaited = promisedType(returnType, services) ?? checker.getAwaitedType(returnType) ?? returnType;
    // Content blocks (`ToolContent` of @toolwright/tool, marked by a key JSON data of a tool's own never has) have no
    // schema; a result that is data or content (`Promise<FileReadResult | ToolContent>`) has the data's.
    const isContent = (type: ts.Type) => checker.getPropertyOfType(type, TOOL_CONTENT_KEY) !== undefined;
    const members = awaited.isUnion() ? awaited.types : [awaited];
    const data = members.filter((member) => !isContent(member));
    returnsContent = data.length < members.length;
    const position = { path: `${tool}()`, role: 'result' as const, node: fn.type ?? candidate.nameNode };
    if (data.length > 0 && !(awaited.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never))) {
      const returnDefinitions = new DefinitionRegistry(checker);
      const mapped = (type: ts.Type) => mapTypeAt(type, position, { ...root, definitions: returnDefinitions });
      // Data beside content: each kind of data mapped on its own (the content member is no part of the schema).
      returns = !returnsContent ? mapped(awaited) : data.length === 1 ? mapped(data[0]!) : { anyOf: data.map(mapped) };
      const returnDoc = [...doc.tags, ...fnDoc.tags].find((tag) => tag.name === 'returns' || tag.name === 'return');
      if (returnDoc?.text) returns = { ...returns, description: returnDoc.text };
      const returnDefs = returnDefinitions.toDefs();
      if (returnDefs) returns = { ...returns, $defs: returnDefs };
    }
  }

  const name = resolved.name ?? toSnakeCase(candidate.functionName);
  if (!WIRE_NAME_PATTERN.test(name)) reporter.report('invalidWireName', { name }, candidate.options ?? candidate.nameNode);
  const description = resolved.description ?? (doc.summary || fnDoc.summary);
  if (!description) reporter.report('missingDescription', { tool }, candidate.nameNode);
  else if (description.length > MAX_DESCRIPTION) reporter.report('descriptionTooLong', { tool, length: description.length }, candidate.nameNode);

  if (reporter.errorCount > errorsBefore) return undefined;
  const sourceFile = fn.getSourceFile();
  const source: ToolSource = {
    file: relativePath(services.rootDir, sourceFile.fileName),
    line: sourceFile.getLineAndCharacterOfPosition(candidate.nameNode.getStart(sourceFile)).line + 1,
    exportName: candidate.exportName,
    form: candidate.form,
    ...(candidate.runs ? { runs: candidate.runs } : {}),
  };
  const declaration: ToolDeclaration = {
    name,
    description,
    parameters: canonicalSchema(parameters) as ParametersSchema,
    parameterOrder,
    ...(resolved.flatten ? { argumentPassing: 'object' as const } : {}),
    metadata: resolved.metadata,
    source,
  };
  if (returns) declaration.returns = canonicalSchema(returns);
  if (returnsContent) declaration.returnsContent = true;
  return declaration;
}

/** A default written as a constant (`limit = DEFAULT_LIMIT`) whose type is a single literal. */
function constantDefault(expression: ts.Expression, checker: ts.TypeChecker): { value: string | number | boolean } | undefined {
  const type = checker.getTypeAtLocation(expression);
  if (type.isStringLiteral() || type.isNumberLiteral()) return { value: type.value };
  if (type.flags & ts.TypeFlags.BooleanLiteral) return { value: checker.typeToString(type) === 'true' };
  return undefined;
}

/**
 * `T` of the library's `Promise<T>` when `T` is no thenable itself: what `getAwaitedType` answers, for
 * the return type of almost every tool, without the checker's general (and first-time costly) walk.
 */
function promisedType(type: ts.Type, services: AnalysisServices): ts.Type | undefined {
  const { checker } = services;
  if (!(type.flags & ts.TypeFlags.Object) || !((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference)) return undefined;
  const symbol = type.getSymbol();
  const declaration = symbol?.declarations?.[0];
  if (symbol?.name !== 'Promise' || !declaration || !services.isLibFile(declaration.getSourceFile())) return undefined;
  const [promised] = checker.getTypeArguments(type as ts.TypeReference);
  if (!promised) return undefined;
  const members = promised.isUnion() ? promised.types : [promised];
  const plain = (member: ts.Type) =>
    !(member.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection | ts.TypeFlags.Instantiable | ts.TypeFlags.Any | ts.TypeFlags.Unknown)) ||
    ((member.flags & ts.TypeFlags.Object) !== 0 && checker.getPropertyOfType(member, 'then') === undefined);
  return members.every(plain) ? promised : undefined;
}

function isPromiseLike(type: ts.Type, checker: ts.TypeChecker): boolean {
  if (type.isUnion()) return type.types.every((member) => isPromiseLike(member, checker));
  const then = checker.getPropertyOfType(type, 'then');
  return then !== undefined && checker.getTypeOfSymbol(then).getCallSignatures().length > 0;
}

/** `this` in a free function (or an arrow at module level) is undefined at call time. */
function checkThisUsage(candidate: ToolCandidate, reporter: Reporter): void {
  const body = candidate.fn.body;
  if (candidate.form === 'decorator' || !body) return;
  // Most bodies never write `this`: the text says so without walking them.
  const at = body.getSourceFile().text.indexOf('this', body.pos);
  if (at < 0 || at >= body.end) return;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.ThisKeyword) {
      reporter.report('thisInFreeFunction', { tool: candidate.functionName }, node);
      return;
    }
    if ((ts.isFunctionLike(node) && !ts.isArrowFunction(node)) || ts.isClassLike(node)) return;
    node.forEachChild(visit);
  };
  body.forEachChild(visit);
}

function relativePath(rootDir: string, fileName: string): string {
  const root = rootDir.replace(/\\/g, '/').replace(/\/?$/, '/');
  const file = fileName.replace(/\\/g, '/');
  return file.startsWith(root) ? file.slice(root.length) : file;
}
