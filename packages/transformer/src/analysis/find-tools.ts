import { ts } from '../front-end/typescript.js';
import { JsDocReader } from '../jsdoc-reader.js';
import type { Reporter } from '../reporter.js';
import type { ToolCalleeResolver } from './tool-callee.js';
import type { ToolCandidate } from './analyze-signature.js';
import { TOOL_SOURCE_KINDS, type ToolSourceKind } from '@toolwright/schema';
import { unwrapExpression } from './tool-options.js';

/** A cheap filter before the JSDoc is parsed; the parsed tags decide (`@tool` in a code span is not a tag). */
const MENTIONS_TOOL_TAG = /@tool\b/;

/**
 * Finds the tools of one source file, in the three authoring forms:
 * @example export const readFile = tool(async function readFile(path: string) {});   // wrapper
 * @example export class Files { @tool() async readFile(path: string) {} }             // decorator
 * @example /** @tool *\/ export async function readFile(path: string) {}              // JSDoc tag
 */
export function findTools(
  sourceFile: ts.SourceFile,
  services: { checker: ts.TypeChecker; callee: ToolCalleeResolver; docs: JsDocReader; reporter: Reporter },
): ToolCandidate[] {
  const { checker, callee, docs, reporter } = services;
  // A callee is `tool` by name (`tool(...)`, `ns.tool(...)`) or an import alias of it (`import { tool as t }`); a
  // source form is `<holder>.wasm(...)` (`.subprocess`, `.http`), the holder `source`, an import or a variable
  // initialised with one (`const s = source`): only those are worth resolving. Every site, `@tool` tags too, has
  // one of these names in its text, so a file or subtree without one is skipped.
  const names = importedNames(sourceFile);
  const mentions = mentionsOf(sourceFile.text, ['tool', 'source', ...TOOL_SOURCE_KINDS, ...names]);
  if (!mentions(0, sourceFile.text.length)) return [];
  const candidates: ToolCandidate[] = [];
  // The module's exports, read only when a declaration has no `export` of its own (`export { name }` later).
  let exported: Set<ts.Symbol> | undefined;
  const isExported = (name: ts.Node | undefined): boolean => {
    if (!name) return false;
    const declaration = ts.findAncestor(name.parent, (n) => ts.isVariableStatement(n) || ts.isClassDeclaration(n) || ts.isFunctionDeclaration(n));
    if (declaration && ts.getCombinedModifierFlags(declaration as ts.Declaration) & ts.ModifierFlags.Export) return true;
    const symbol = checker.getSymbolAtLocation(name);
    exported ??= exportedSymbols(sourceFile, checker);
    return symbol !== undefined && exported.has(symbol);
  };

  const mayBeTool = (expression: ts.Expression): boolean => {
    const target = ts.isPropertyAccessExpression(expression) ? expression.name : expression;
    return ts.isIdentifier(target) && (target.text === 'tool' || names.has(target.text));
  };
  const mayBeSource = (expression: ts.Expression): boolean => {
    if (!ts.isPropertyAccessExpression(expression) || !TOOL_SOURCE_KINDS.includes(expression.name.text as ToolSourceKind)) return false;
    const holder = ts.isPropertyAccessExpression(expression.expression) ? expression.expression.name : expression.expression;
    return ts.isIdentifier(holder);
  };
  const visit = (node: ts.Node): void => {
    if (!mentions(node.pos, node.end)) return;
    if (ts.isCallExpression(node) && !ts.isDecorator(node.parent) && mayBeTool(node.expression) && callee.isToolCallee(node.expression)) {
      const candidate = wrapperCandidate(node, checker, reporter, isExported);
      if (candidate) candidates.push(candidate);
    } else if (ts.isCallExpression(node) && mayBeSource(node.expression)) {
      const kind = callee.sourceKindOf(node.expression);
      const candidate = kind ? sourceCandidate(node, kind, checker, reporter, isExported) : undefined;
      if (candidate) candidates.push(candidate);
    } else if (ts.isMethodDeclaration(node)) {
      const candidate = decoratorCandidate(node, callee, reporter, isExported);
      if (candidate) candidates.push(candidate);
    } else if (ts.isFunctionDeclaration(node) && hasToolTag(node, sourceFile, docs)) {
      const candidate = jsDocCandidate(node, reporter, isExported);
      if (candidate) candidates.push(candidate);
    }
    node.forEachChild(visit);
  };
  sourceFile.forEachChild(visit);
  return candidates;
}

function hasToolTag(fn: ts.FunctionDeclaration, sourceFile: ts.SourceFile, docs: JsDocReader): boolean {
  return JsDocReader.hasDocComment(fn, sourceFile, MENTIONS_TOOL_TAG) && docs.read(fn).tags.some((tag) => tag.name === 'tool');
}

function wrapperCandidate(
  call: ts.CallExpression,
  checker: ts.TypeChecker,
  reporter: Reporter,
  isExported: (n: ts.Node | undefined) => boolean,
): ToolCandidate | undefined {
  const [first, options] = call.arguments;
  if (!first) {
    reporter.report('unsupportedToolForm.decoratorNotApplied', {}, call);
    return undefined;
  }
  const fn = resolveFunction(unwrapExpression(first), checker);
  if (!fn) {
    reporter.report('unsupportedToolForm.notAFunction', {}, first);
    return undefined;
  }
  const { holder, exportName } = bindingOf(call);
  const functionName = (fn.name && ts.isIdentifier(fn.name) ? fn.name.text : undefined) ?? exportName;
  if (!functionName || exportName === undefined) {
    reporter.report('toolNotExported', { tool: functionName ?? 'anonymous' }, call.expression);
    return undefined;
  }
  if (exportName !== 'default' && !isExported(holder)) {
    reporter.report('toolNotExported', { tool: functionName }, holder ?? call.expression);
    return undefined;
  }
  const statement = holder ? ts.findAncestor(holder, ts.isVariableStatement) : ts.findAncestor(call, ts.isExportAssignment);
  return {
    form: 'wrapper',
    fn,
    docHost: statement ?? call,
    functionName,
    nameNode: holder ?? (fn.name as ts.Node | undefined) ?? call.expression,
    ...(options ? { options } : {}),
    exportName,
    site: call,
  };
}

/**
 * `export const resize = source.wasm<(path: string) => Promise<Resized>>('./resize.wasm', options)`: the type argument
 * is the tool's signature (a function type, or the name of a type alias of one), its JSDoc the statement's.
 */
function sourceCandidate(
  call: ts.CallExpression,
  kind: ToolSourceKind,
  checker: ts.TypeChecker,
  reporter: Reporter,
  isExported: (n: ts.Node | undefined) => boolean,
): ToolCandidate | undefined {
  const [signature] = call.typeArguments ?? [];
  const fn = signature ? signatureOf(signature, checker) : undefined;
  if (!fn) {
    reporter.report(
      signature ? 'unsupportedToolForm.sourceSignatureNotFunction' : 'unsupportedToolForm.sourceWithoutSignature',
      { kind },
      signature ?? call.expression,
    );
    return undefined;
  }
  const { holder, exportName } = bindingOf(call);
  if (!holder || exportName === undefined) {
    // `export default source.wasm<F>(...)`, or a call that is no variable's value: the tool's name is the const's.
    reporter.report('unsupportedToolForm.sourceNotBound', { kind }, call.expression);
    return undefined;
  }
  if (!isExported(holder)) {
    reporter.report('toolNotExported', { tool: exportName }, holder);
    return undefined;
  }
  const statement = ts.findAncestor(holder, ts.isVariableStatement);
  const options = call.arguments[1];
  return {
    form: 'wrapper',
    runs: kind,
    fn,
    docHost: statement ?? call,
    functionName: exportName,
    nameNode: holder,
    ...(options ? { options } : {}),
    exportName,
    site: call,
  };
}

/** A source form's signature: a function type written in place, or the function type a type alias names. */
function signatureOf(node: ts.TypeNode, checker: ts.TypeChecker): ts.FunctionTypeNode | undefined {
  let type: ts.TypeNode = node;
  while (ts.isParenthesizedTypeNode(type)) type = type.type;
  if (ts.isFunctionTypeNode(type)) return type;
  if (!ts.isTypeReferenceNode(type) || type.typeArguments) return undefined;
  let symbol = checker.getSymbolAtLocation(type.typeName);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const alias = symbol?.declarations?.find(ts.isTypeAliasDeclaration);
  return alias && !alias.typeParameters ? signatureOf(alias.type, checker) : undefined;
}

function resolveFunction(expression: ts.Expression, checker: ts.TypeChecker): ToolCandidate['fn'] | undefined {
  if (ts.isFunctionExpression(expression) || ts.isArrowFunction(expression)) return expression;
  if (!ts.isIdentifier(expression)) return undefined;
  let symbol = checker.getSymbolAtLocation(expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  if (!declaration) return undefined;
  if (ts.isFunctionDeclaration(declaration) && declaration.body) return declaration;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
    const init = unwrapExpression(declaration.initializer);
    if (ts.isFunctionExpression(init) || ts.isArrowFunction(init)) return init;
  }
  return undefined;
}

/** `export const name = tool(...)` gives `name`; `export default tool(...)` gives `default`. */
function bindingOf(call: ts.CallExpression): { holder?: ts.Identifier; exportName?: string } {
  let node: ts.Node = call;
  while (ts.isParenthesizedExpression(node.parent) || ts.isAsExpression(node.parent) || ts.isSatisfiesExpression(node.parent)) node = node.parent;
  if (ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)) return { holder: node.parent.name, exportName: node.parent.name.text };
  if (ts.isExportAssignment(node.parent) && !node.parent.isExportEquals) return { exportName: 'default' };
  return {};
}

function decoratorCandidate(
  method: ts.MethodDeclaration,
  callee: ToolCalleeResolver,
  reporter: Reporter,
  isExported: (n: ts.Node | undefined) => boolean,
): ToolCandidate | undefined {
  const decorator = ts.getDecorators(method)?.find((d) => ts.isCallExpression(d.expression) && callee.isToolCallee(d.expression.expression));
  if (!decorator) return undefined;
  const call = decorator.expression as ts.CallExpression;
  const methodName = ts.isIdentifier(method.name) ? method.name.text : method.name.getText();
  const modifiers = ts.getCombinedModifierFlags(method);
  const what = ts.isPrivateIdentifier(method.name)
    ? 'private'
    : modifiers & ts.ModifierFlags.Static
      ? 'static'
      : modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)
        ? 'nonPublic'
        : !ts.isIdentifier(method.name)
          ? 'computed'
          : undefined;
  if (what) {
    reporter.report(`invalidToolMethod.${what}`, { method: methodName }, method.name);
    return undefined;
  }
  const owner = method.parent;
  const className = ts.isClassDeclaration(owner) && owner.name ? owner.name.text : undefined;
  if (!className || !ts.isClassDeclaration(owner) || !isExported(owner.name)) {
    reporter.report(
      'toolNotExported',
      { tool: `${className ?? 'anonymous class'}.${methodName}` },
      ts.isClassDeclaration(owner) && owner.name ? owner.name : decorator,
    );
    return undefined;
  }
  const options = call.arguments[0];
  return {
    form: 'decorator',
    fn: method,
    docHost: method,
    functionName: methodName,
    nameNode: method.name,
    ...(options ? { options } : {}),
    exportName: `${className}.prototype.${methodName}`,
    site: call,
  };
}

function jsDocCandidate(fn: ts.FunctionDeclaration, reporter: Reporter, isExported: (n: ts.Node | undefined) => boolean): ToolCandidate | undefined {
  if (!fn.body) return undefined;
  const isDefault = (ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Default) !== 0;
  if (!fn.name) {
    reporter.report('unsupportedToolForm.anonymousFunction', {}, fn);
    return undefined;
  }
  if (!isDefault && !isExported(fn.name)) {
    reporter.report('toolNotExported', { tool: fn.name.text }, fn.name);
    return undefined;
  }
  return { form: 'jsdoc', fn, docHost: fn, functionName: fn.name.text, nameNode: fn.name, exportName: isDefault ? 'default' : fn.name.text, site: fn };
}

/**
 * Whether `text` has one of `words` as a whole name starting in [start, end): not inside a longer
 * ASCII name (`tool0`, `mytool` and `tools` are no mention of `tool`). Never too few: a name written
 * with a non-ASCII letter beside it counts as a mention.
 */
export function mentionsOf(text: string, words: readonly string[]): (start: number, end: number) => boolean {
  const positions: number[] = [];
  for (const word of new Set(words)) {
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      if (!isAsciiNameChar(text.charCodeAt(at - 1)) && !isAsciiNameChar(text.charCodeAt(at + word.length))) positions.push(at);
    }
  }
  positions.sort((a, b) => a - b);
  return (start, end) => {
    let low = 0;
    let high = positions.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (positions[middle]! < start) low = middle + 1;
      else high = middle;
    }
    return low < positions.length && positions[low]! < end;
  };
}

/** `A`–`Z`, `a`–`z`, `0`–`9`, `_` and `$` (NaN, outside the text, is none). */
function isAsciiNameChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
}

/**
 * The local value names bound by the file's imports (`import`, `import x = `), in `declare module`
 * blocks too; type-only imports cannot be called, so they are left out.
 */
function importedNames(sourceFile: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (statement: ts.Statement): void => {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (!clause || clause.phaseModifier === ts.SyntaxKind.TypeKeyword) return;
      if (clause.name) names.add(clause.name.text);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) if (!element.isTypeOnly) names.add(element.name.text);
    } else if (ts.isImportEqualsDeclaration(statement)) {
      if (statement.isTypeOnly) return;
      names.add(statement.name.text);
    } else if (ts.isModuleDeclaration(statement) && statement.body && ts.isModuleBlock(statement.body)) {
      statement.body.statements.forEach(visit);
    }
  };
  sourceFile.statements.forEach(visit);
  return names;
}

function exportedSymbols(sourceFile: ts.SourceFile, checker: ts.TypeChecker): Set<ts.Symbol> {
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
  const result = new Set<ts.Symbol>();
  if (!moduleSymbol) return result;
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    result.add(symbol);
    if (symbol.flags & ts.SymbolFlags.Alias) result.add(checker.getAliasedSymbol(symbol));
  }
  return result;
}
