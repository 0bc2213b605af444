import { ts } from '../front-end/typescript.js';
import type { DocInfo } from '../jsdoc-reader.js';
import type { MapContext } from './type-mapper.js';

type SyntaxContext = Pick<MapContext, 'checker' | 'docs' | 'isProjectFile'>;

/** What the syntax at a position adds to the checker's type. */
export interface TypeSyntax {
  /** The innermost node that still denotes the type (aliases the checker forgot are followed). */
  node?: ts.TypeNode;
  /** Docs of the project aliases the checker forgot, innermost first (outer ones apply last and win). */
  aliasDocs: DocInfo[];
}

const NONE: TypeSyntax = { aliasDocs: [] };

/**
 * Follows a type node through the project's aliases the checker does not keep on the type: to the
 * checker, `type Ipv4 = string` is `string` and `type Count = Integer` is `Integer`, so their JSDoc
 * is only reachable through the node. Every step must denote the very type being mapped, which
 * rules out nodes of generic declarations (`T` in `interface Box<T> { value: T }`).
 * @example  /** @format ipv4 *\/ type Ipv4 = string;   ips: Ipv4[]   // items keep "format": "ipv4"
 */
export function resolveSyntax(node: ts.TypeNode | undefined, type: ts.Type, ctx: SyntaxContext): TypeSyntax {
  let current = node && unwrapParentheses(node);
  if (!current) return NONE;
  const written = ctx.checker.getTypeFromTypeNode(current);
  if (written !== type) {
    if (!addsOnlyUndefined(type, written)) return NONE;
    // `limit?: Percent` has type `number | undefined`: the node still denotes the member the union
    // mapper maps next, which reads the alias docs then (reading them here too would apply them twice).
    // But `order?: Order` with `type Order = 'asc' | 'desc'` is one flat union that lost its alias:
    // its members are mapped together here, so the docs of the written union apply here.
    if (!written.isUnion()) return { node: current, aliasDocs: [] };
    return { node: current, aliasDocs: [...resolveSyntax(current, written, ctx).aliasDocs, ...namedTypeDocs(written, ctx)] };
  }
  const aliasDocs: DocInfo[] = [];
  const seen = new Set<ts.Node>();
  while (ts.isTypeReferenceNode(current) && !seen.has(current)) {
    seen.add(current);
    let symbol = ctx.checker.getSymbolAtLocation(current.typeName);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = ctx.checker.getAliasedSymbol(symbol);
    const declaration = symbol?.declarations?.find(ts.isTypeAliasDeclaration);
    if (!declaration || declaration.getSourceFile().isDeclarationFile || !ctx.isProjectFile(declaration.getSourceFile())) break;
    // An alias kept on the type is documented by withNamedTypeDocs; only forgotten ones are read here.
    if (type.aliasSymbol !== symbol) aliasDocs.unshift(ctx.docs.read(declaration));
    const inner = unwrapParentheses(declaration.type);
    if (ctx.checker.getTypeFromTypeNode(inner) !== type) break;
    current = inner;
  }
  return { node: current, aliasDocs };
}

/** Whether `type` is `written` with `undefined` or `void` members added (an optional member's type). */
function addsOnlyUndefined(type: ts.Type, written: ts.Type): boolean {
  if (!type.isUnion()) return false;
  const writtenMembers = new Set(written.isUnion() ? written.types : [written]);
  const extra = type.types.filter((member) => !writtenMembers.has(member));
  return (
    extra.length > 0 &&
    extra.length === type.types.length - writtenMembers.size &&
    extra.every((member) => (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) !== 0)
  );
}

/**
 * JSDoc on an alias, interface, class or enum of the project describes every use of it. Docs of types
 * from other packages are written for their developers (e.g. `Integer`'s own `@example`) and stay out.
 */
export function namedTypeDocs(type: ts.Type, ctx: SyntaxContext): DocInfo[] {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  const declaration = symbol?.declarations?.[0];
  if (!declaration || declaration.getSourceFile().isDeclarationFile || !ctx.isProjectFile(declaration.getSourceFile())) return [];
  if (
    !ts.isTypeAliasDeclaration(declaration) &&
    !ts.isInterfaceDeclaration(declaration) &&
    !ts.isEnumDeclaration(declaration) &&
    !ts.isClassDeclaration(declaration)
  )
    return [];
  return [ctx.docs.read(declaration)];
}

/** Whether the docs say anything (a summary or a tag). */
export function hasDocs(docs: DocInfo): boolean {
  return docs.summary !== '' || docs.tags.length > 0;
}

export function unwrapParentheses(node: ts.TypeNode): ts.TypeNode {
  let current = node;
  while (ts.isParenthesizedTypeNode(current)) current = current.type;
  return current;
}

/** The element's type node of an array type node: `T[]`, `readonly T[]`, `Array<T>`, `ReadonlyArray<T>`. */
export function elementTypeNode(node: ts.TypeNode | undefined): ts.TypeNode | undefined {
  if (!node) return undefined;
  const inner = unwrapParentheses(node);
  if (ts.isArrayTypeNode(inner)) return inner.elementType;
  if (ts.isTypeOperatorNode(inner) && inner.operator === ts.SyntaxKind.ReadonlyKeyword) return elementTypeNode(inner.type);
  if (
    ts.isTypeReferenceNode(inner) &&
    inner.typeArguments?.length === 1 &&
    ts.isIdentifier(inner.typeName) &&
    (inner.typeName.text === 'Array' || inner.typeName.text === 'ReadonlyArray')
  )
    return inner.typeArguments[0];
  return undefined;
}

/** The type nodes of a union type node's members, nested unions flattened. */
export function unionMemberNodes(node: ts.TypeNode | undefined): ts.TypeNode[] | undefined {
  if (!node) return undefined;
  const inner = unwrapParentheses(node);
  if (!ts.isUnionTypeNode(inner)) return undefined;
  return inner.types.flatMap((member) => unionMemberNodes(member) ?? [unwrapParentheses(member)]);
}
