import ts from 'typescript';
import type { ToolDeclaration } from '@toolwright/schema';
import { analyzeProgram } from '../analysis/analyze-program.js';
import { jsonParseExpression } from './json-expression.js';
import { declaringDirectoryArguments } from './declaring-directory.js';

/**
 * The emitting half: attaches each tool's declaration to the function in the JS output.
 * - wrapper:   `tool(fn, options)`  ->  `tool(fn, options, declaration)`
 * - decorator: `@tool(options)`     ->  `@tool(options, declaration)`
 * - source:    `source.wasm<F>(module, options)`  ->  `source.wasm(module, options, declaration, "../src", import.meta.url)`
 *              (the declaring directory relative to the output file, and where that runs: `declaringDirectoryArguments`)
 * - JSDoc:     `export async function f() {}` is followed by
 *              `Object.defineProperty(f, Symbol.for("toolwright.declaration"), { value: declaration })`
 * Diagnostics are the program transformer's job, so nothing is reported twice.
 */
export function createSourceTransformer(program: ts.Program, options: { strictJson?: boolean } = {}): ts.TransformerFactory<ts.SourceFile> {
  return (context) => (sourceFile) => {
    const analysis = analyzeProgram(program, options.strictJson ? { strictJson: true } : {});
    if (analysis.bySite.size === 0) return sourceFile;
    const { factory } = context;
    const onPath = pathsToSites(analysis.bySite).get(sourceFile);
    if (!onPath) return sourceFile;
    const visit = (node: ts.Node): ts.VisitResult<ts.Node> => {
      // Only the nodes between the file and a tool site are visited; every other subtree is kept as it is.
      if (!onPath.has(ts.getOriginalNode(node))) return node;
      const declaration = analysis.bySite.get(ts.getOriginalNode(node));
      if (declaration && ts.isCallExpression(node)) {
        const visited = ts.visitEachChild(node, visit, context);
        return factory.updateCallExpression(visited, visited.expression, visited.typeArguments, withDeclaration(visited, declaration, factory, program));
      }
      if (declaration && ts.isFunctionDeclaration(node) && node.name) {
        const visited = ts.visitEachChild(node, visit, context);
        return [visited, attachStatement(node.name, declaration, factory)];
      }
      return ts.visitEachChild(node, visit, context);
    };
    return ts.visitEachChild(sourceFile, visit, context);
  };
}

const pathsCache = new WeakMap<Map<ts.Node, ToolDeclaration>, Map<ts.SourceFile, Set<ts.Node>>>();

/** For each file with tools: every node that is a tool site or contains one (computed once per analysis). */
function pathsToSites(bySite: Map<ts.Node, ToolDeclaration>): Map<ts.SourceFile, Set<ts.Node>> {
  let byFile = pathsCache.get(bySite);
  if (byFile) return byFile;
  byFile = new Map();
  for (const site of bySite.keys()) {
    const sourceFile = site.getSourceFile();
    let onPath = byFile.get(sourceFile);
    if (!onPath) byFile.set(sourceFile, (onPath = new Set()));
    for (let node: ts.Node | undefined = site; node && !onPath.has(node); node = node.parent) onPath.add(node);
  }
  pathsCache.set(bySite, byFile);
  return byFile;
}

function withDeclaration(call: ts.CallExpression, declaration: ToolDeclaration, factory: ts.NodeFactory, program: ts.Program): ts.Expression[] {
  const isDecorator = ts.isDecorator(ts.getOriginalNode(call).parent);
  const args = [...call.arguments];
  const wanted = isDecorator ? 1 : 2; // decorator: (options, decl); wrapper: (fn, options, decl)
  while (args.length < wanted) args.push(factory.createVoidZero());
  const withDeclaration = [...args.slice(0, wanted), jsonParseExpression(declaration, factory)];
  // A source form's relative paths are relative to the file that declares the tool, wherever its output runs.
  if (declaration.source?.runs) withDeclaration.push(...declaringDirectoryArguments(program, ts.getOriginalNode(call).getSourceFile(), factory));
  return withDeclaration;
}

function attachStatement(name: ts.Identifier, declaration: ToolDeclaration, factory: ts.NodeFactory): ts.Statement {
  const key = factory.createCallExpression(factory.createPropertyAccessExpression(factory.createIdentifier('Symbol'), 'for'), undefined, [
    factory.createStringLiteral('toolwright.declaration'),
  ]);
  const descriptor = factory.createObjectLiteralExpression([
    factory.createPropertyAssignment('value', jsonParseExpression(declaration, factory)),
    factory.createPropertyAssignment('configurable', factory.createTrue()),
  ]);
  return factory.createExpressionStatement(
    factory.createCallExpression(factory.createPropertyAccessExpression(factory.createIdentifier('Object'), 'defineProperty'), undefined, [
      factory.createIdentifier(name.text),
      key,
      descriptor,
    ]),
  );
}
