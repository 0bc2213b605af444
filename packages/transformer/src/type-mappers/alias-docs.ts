import ts from 'typescript';
import type { MapContext } from './type-mapper.js';

/**
 * Docs of the alias named by a type node (`level: Percent`), for aliases the checker does not keep on
 * the type: an alias of a primitive (`type Percent = number`) is just `number` to the checker.
 * @example  /** @minimum 0 @maximum 100 *\/ type Percent = number;
 */
export function aliasDocsOfTypeNode(node: ts.Node | undefined, ctx: Pick<MapContext, 'checker' | 'docs' | 'isProjectFile'>): ReturnType<MapContext['docs']['read']> | undefined {
  if (!node || !ts.isTypeReferenceNode(node)) return undefined;
  let symbol = ctx.checker.getSymbolAtLocation(node.typeName);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = ctx.checker.getAliasedSymbol(symbol);
  const declaration = symbol?.declarations?.find(ts.isTypeAliasDeclaration);
  if (!declaration || declaration.getSourceFile().isDeclarationFile || !ctx.isProjectFile(declaration.getSourceFile())) return undefined;
  if (ctx.checker.getTypeAtLocation(node).aliasSymbol) return undefined; // kept on the type: handled by withNamedTypeDocs
  return ctx.docs.read(declaration);
}
