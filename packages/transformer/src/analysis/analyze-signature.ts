import ts from 'typescript';
import {
  WIRE_NAME_PATTERN, toSnakeCase,
  type JsonSchema, type ParametersSchema, type ToolDeclaration, type ToolSource,
} from '@toolwright/schema';
import { applyDocTags } from '../type-mappers/constraint-tags.js';
import { DefinitionRegistry } from '../type-mappers/definition-registry.js';
import { aliasDocsOfTypeNode } from '../type-mappers/alias-docs.js';
import { mapTypeAt } from '../type-mappers/map-type.js';
import { includesUndefined } from '../type-mappers/object-mappers.js';
import type { MapContext } from '../type-mappers/type-mapper.js';
import { canonicalSchema } from './canonical-schema.js';
import type { JsDocReader } from './jsdoc-reader.js';
import { literalDefault } from './literal-default.js';
import type { Reporter } from './reporter.js';
import { readOptionsLiteral, readOptionsTags, resolveMetadata } from './tool-options.js';

/** One `@tool` function found in a source file, in any of the three forms. */
export interface ToolCandidate {
  form: ToolSource['form'];
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
  isLibFile(file: ts.SourceFile): boolean;
  isProjectFile(file: ts.SourceFile): boolean;
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
  const resolved = resolveMetadata([readOptionsTags(doc), readOptionsTags(fnDoc), readOptionsLiteral(candidate.options, reporter)], reporter);

  if (fn.typeParameters && fn.typeParameters.length > 0) {
    // One error says it all: every type that mentions a type parameter would fail again below.
    reporter.report('genericTool', { tool }, fn.typeParameters[0]!);
    return undefined;
  }
  checkThisUsage(candidate, reporter);

  const signature = checker.getSignatureFromDeclaration(fn);
  const returnType = signature ? checker.getReturnTypeOfSignature(signature) : undefined;
  const isAsync = ts.getCombinedModifierFlags(fn as ts.Declaration) & ts.ModifierFlags.Async;
  if (!isAsync && (!returnType || !isPromiseLike(returnType, checker))) {
    reporter.report('toolMustBeAsync', { tool, type: returnType ? checker.typeToString(returnType) : 'unknown' }, fn.type ?? candidate.nameNode);
  }

  const definitions = new DefinitionRegistry(checker);
  const root = { checker, reporter, docs, definitions, isLibFile: services.isLibFile, isProjectFile: services.isProjectFile };
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const parameterOrder: string[] = [];
  for (const parameter of fn.parameters) {
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
    const position = { path: name, role: 'Parameter', node: parameter.type ?? parameter };
    const type = checker.getTypeAtLocation(parameter);
    let schema = mapTypeAt(type, position, root);
    const aliasDocs = aliasDocsOfTypeNode(parameter.type, { checker, docs, isProjectFile: services.isProjectFile });
    const ctxForAlias: Pick<MapContext, 'report' | 'position'> = { position, report: (id, args, node) => reporter.report(id, args, node ?? parameter) };
    if (aliasDocs) schema = applyDocTags(schema, aliasDocs, ctxForAlias);
    const ctx: Pick<MapContext, 'report' | 'position'> = { position, report: (id, args, node) => reporter.report(id, args, node ?? parameter) };
    schema = applyDocTags(schema, docs.read(parameter), ctx);
    const paramText = doc.params.get(name)?.text ?? fnDoc.params.get(name)?.text;
    if (paramText) schema = { ...schema, description: paramText };
    if (parameter.initializer) {
      const value = literalDefault(parameter.initializer) ?? constantDefault(parameter.initializer, checker);
      if (value) schema = { ...schema, default: value.value };
      else if (schema.default === undefined) reporter.report('defaultNotLiteral', { path: name }, parameter.initializer);
    }
    properties[name] = schema;
    parameterOrder.push(name);
    const optional = Boolean(parameter.questionToken || parameter.initializer) || includesUndefined(type);
    if (!optional) required.push(name);
  }

  const parameters: ParametersSchema = { type: 'object', properties, required, additionalProperties: false };
  const parameterDefs = definitions.toDefs();
  if (parameterDefs) parameters.$defs = parameterDefs;

  let returns: JsonSchema | undefined;
  if (returnType) {
    const awaited = checker.getAwaitedType(returnType) ?? returnType;
    if (!(awaited.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never))) {
      const returnDefinitions = new DefinitionRegistry(checker);
      returns = mapTypeAt(awaited, { path: `${tool}()`, role: 'The result of', node: fn.type ?? candidate.nameNode }, { ...root, definitions: returnDefinitions });
      const returnDoc = [...doc.tags, ...fnDoc.tags].find((tag) => tag.name === 'returns' || tag.name === 'return');
      if (returnDoc?.text) returns = { ...returns, description: returnDoc.text };
      const returnDefs = returnDefinitions.toDefs();
      if (returnDefs) returns.$defs = returnDefs;
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
  };
  const declaration: ToolDeclaration = {
    name,
    description,
    parameters: canonicalSchema(parameters) as ParametersSchema,
    parameterOrder,
    metadata: resolved.metadata,
    source,
  };
  if (returns) declaration.returns = canonicalSchema(returns);
  return declaration;
}

/** A default written as a constant (`limit = DEFAULT_LIMIT`) whose type is a single literal. */
function constantDefault(expression: ts.Expression, checker: ts.TypeChecker): { value: string | number | boolean } | undefined {
  const type = checker.getTypeAtLocation(expression);
  if (type.isStringLiteral() || type.isNumberLiteral()) return { value: type.value };
  if (type.flags & ts.TypeFlags.BooleanLiteral) return { value: checker.typeToString(type) === 'true' };
  return undefined;
}

function isPromiseLike(type: ts.Type, checker: ts.TypeChecker): boolean {
  if (type.isUnion()) return type.types.every((member) => isPromiseLike(member, checker));
  const then = checker.getPropertyOfType(type, 'then');
  return then !== undefined && checker.getTypeOfSymbol(then).getCallSignatures().length > 0;
}

/** `this` in a free function (or an arrow at module level) is undefined at call time. */
function checkThisUsage(candidate: ToolCandidate, reporter: Reporter): void {
  if (candidate.form === 'decorator' || !candidate.fn.body) return;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.ThisKeyword) {
      reporter.report('thisInFreeFunction', { tool: candidate.functionName }, node);
      return;
    }
    if ((ts.isFunctionLike(node) && !ts.isArrowFunction(node)) || ts.isClassLike(node)) return;
    node.forEachChild(visit);
  };
  candidate.fn.body.forEachChild(visit);
}

function relativePath(rootDir: string, fileName: string): string {
  const root = rootDir.replace(/\\/g, '/').replace(/\/?$/, '/');
  const file = fileName.replace(/\\/g, '/');
  return file.startsWith(root) ? file.slice(root.length) : file;
}
