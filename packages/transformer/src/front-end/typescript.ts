import typescript from 'typescript';

/**
 * The part of TypeScript's API the analysis reads (syntax kinds, flags, node tests, JSDoc helpers):
 * TypeScript 6's own module by default, or TypeScript 7's API under the same names while a TS 7
 * project is analysed (`front-end/typescript-7`). The checker and the program are handed to the
 * analysis as objects; this is everything else it takes from the compiler, listed by name, so a
 * front end knows what it must provide and the analysis cannot reach past it.
 */
export type TypeScriptSurface = Pick<
  typeof typescript,
  // Enumerations: each compiler numbers them its own way.
  | 'SyntaxKind'
  | 'TypeFlags'
  | 'ObjectFlags'
  | 'SymbolFlags'
  | 'ModifierFlags'
  | 'ElementFlags'
  | 'IndexKind'
  | 'ScriptTarget'
  | 'JSDocParsingMode'
  // Syntax helpers.
  | 'createSourceFile'
  | 'findAncestor'
  | 'getCombinedModifierFlags'
  | 'getDecorators'
  | 'getJSDocCommentsAndTags'
  | 'getJSDocTags'
  | 'getLeadingCommentRanges'
  | 'getTrailingCommentRanges'
  | 'getTextOfJSDocComment'
  | 'isExternalModule'
  | 'sys'
  // Node tests.
  | 'isArrayLiteralExpression'
  | 'isArrayTypeNode'
  | 'isArrowFunction'
  | 'isAsExpression'
  | 'isCallExpression'
  | 'isClassDeclaration'
  | 'isClassLike'
  | 'isConstructorDeclaration'
  | 'isDecorator'
  | 'isEnumDeclaration'
  | 'isExportAssignment'
  | 'isExportDeclaration'
  | 'isFunctionDeclaration'
  | 'isFunctionExpression'
  | 'isFunctionTypeNode'
  | 'isFunctionLike'
  | 'isIdentifier'
  | 'isImportDeclaration'
  | 'isImportEqualsDeclaration'
  | 'isImportTypeNode'
  | 'isInterfaceDeclaration'
  | 'isJSDoc'
  | 'isJSDocParameterTag'
  | 'isJSDocReturnTag'
  | 'isJSDocTypeTag'
  | 'isLiteralTypeNode'
  | 'isMethodDeclaration'
  | 'isModuleBlock'
  | 'isModuleDeclaration'
  | 'isNamedImports'
  | 'isNamedTupleMember'
  | 'isNamespaceImport'
  | 'isNoSubstitutionTemplateLiteral'
  | 'isNumericLiteral'
  | 'isObjectBindingPattern'
  | 'isObjectLiteralExpression'
  | 'isOptionalTypeNode'
  | 'isParenthesizedExpression'
  | 'isParenthesizedTypeNode'
  | 'isPrefixUnaryExpression'
  | 'isPrivateIdentifier'
  | 'isPropertyAccessExpression'
  | 'isPropertyAssignment'
  | 'isRestTypeNode'
  | 'isSatisfiesExpression'
  | 'isSourceFile'
  | 'isStringLiteral'
  | 'isTupleTypeNode'
  | 'isTypeAliasDeclaration'
  | 'isTypeAssertionExpression'
  | 'isTypeOperatorNode'
  | 'isTypeReferenceNode'
  | 'isUnionTypeNode'
  | 'isVariableDeclaration'
  | 'isVariableStatement'
>;

/** The compiler being analysed; reassigned only by `withTypeScript` (a live binding: every module reads the surface in use). */
export let ts: TypeScriptSurface = typescript;

/** The compiler's node, type and symbol shapes the analysis is written against (TypeScript 6's; a TS 7 front end presents its objects in them). */
// eslint-disable-next-line @typescript-eslint/no-namespace -- types only, merged with the `ts` binding so `ts.Node` reads as before
export declare namespace ts {
  export type CallExpression = typescript.CallExpression;
  export type CompilerOptions = typescript.CompilerOptions;
  export type Declaration = typescript.Declaration;
  export type ElementFlags = typescript.ElementFlags;
  export type Expression = typescript.Expression;
  export type FunctionDeclaration = typescript.FunctionDeclaration;
  export type FunctionTypeNode = typescript.FunctionTypeNode;
  export type Identifier = typescript.Identifier;
  export type IndexInfo = typescript.IndexInfo;
  export type InterfaceType = typescript.InterfaceType;
  export type IntersectionType = typescript.IntersectionType;
  export type JSDoc = typescript.JSDoc;
  export type JSDocTag = typescript.JSDocTag;
  export type MethodDeclaration = typescript.MethodDeclaration;
  export type ModifierFlags = typescript.ModifierFlags;
  export type Node = typescript.Node;
  export type ObjectBindingPattern = typescript.ObjectBindingPattern;
  export type ObjectFlags = typescript.ObjectFlags;
  export type ObjectType = typescript.ObjectType;
  export type ParameterDeclaration = typescript.ParameterDeclaration;
  export type Program = typescript.Program;
  export type Signature = typescript.Signature;
  export type SignatureDeclaration = typescript.SignatureDeclaration;
  export type SourceFile = typescript.SourceFile;
  export type Statement = typescript.Statement;
  export type Symbol = typescript.Symbol;
  export type SymbolFlags = typescript.SymbolFlags;
  export type SyntaxKind = typescript.SyntaxKind;
  export type TemplateLiteralType = typescript.TemplateLiteralType;
  export type TupleType = typescript.TupleType;
  export type Type = typescript.Type;
  export type TypeChecker = typescript.TypeChecker;
  export type TypeFlags = typescript.TypeFlags;
  export type TypeNode = typescript.TypeNode;
  export type TypeReference = typescript.TypeReference;
  export type UnionType = typescript.UnionType;
  export type UnionTypeNode = typescript.UnionTypeNode;
}

/**
 * Advance notice a front end may take (TypeScript 7's, whose every question is a round trip to the
 * compiler): the files the analysis is about to read (not those it reuses), before it reads the
 * first, so questions about their nodes can be asked of all of them at once; then the functions whose
 * signatures it is about to read (7.1 asks about every type they reach in a few batched round trips).
 * A checker that has no use for them lacks the methods.
 */
export interface ReadAhead {
  readFiles?(files: readonly ts.SourceFile[]): void;
  readSignatures?(functions: readonly ts.SignatureDeclaration[]): void;
}

export function readAheadOf(checker: ts.TypeChecker): ReadAhead {
  return checker as ReadAhead;
}

/**
 * Runs `analyse` with `surface` as the compiler. The analysis is synchronous (TypeScript 7's API is
 * used through its synchronous client), so nothing else runs while the surface is swapped.
 */
export function withTypeScript<T>(surface: TypeScriptSurface, analyse: () => T): T {
  const before = ts;
  ts = surface;
  try {
    return analyse();
  } finally {
    ts = before;
  }
}
