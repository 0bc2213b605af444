import fs from 'node:fs';
import type { TypeScriptSurface } from '../typescript.js';
import { jsDocCommentsAndTags, parseLoneComment } from './jsdoc-7.js';
import type { Node7, Project7, TypeScript7 } from './typescript-7-api.js';

/** The modifier keywords, by the `ModifierFlags` member each sets. */
const MODIFIER_KEYWORDS: readonly (readonly [keyword: string, flag: string])[] = [
  ['ExportKeyword', 'Export'],
  ['DefaultKeyword', 'Default'],
  ['AsyncKeyword', 'Async'],
  ['StaticKeyword', 'Static'],
  ['PublicKeyword', 'Public'],
  ['PrivateKeyword', 'Private'],
  ['ProtectedKeyword', 'Protected'],
  ['ReadonlyKeyword', 'Readonly'],
  ['AbstractKeyword', 'Abstract'],
  ['DeclareKeyword', 'Ambient'],
  ['ConstKeyword', 'Const'],
  ['OverrideKeyword', 'Override'],
  ['AccessorKeyword', 'Accessor'],
  ['InKeyword', 'In'],
  ['OutKeyword', 'Out'],
  ['Decorator', 'Decorator'],
];

/**
 * The compiler surface of one TypeScript 7 project: its numbering and node tests, and the helpers
 * TypeScript 6 has that TypeScript 7's API does not, written against TypeScript 7's nodes.
 */
export function typeScript7Surface(typescript: TypeScript7, project: Project7): TypeScriptSurface {
  const { enums, is } = typescript;
  const kind = enums.SyntaxKind;
  const test = (name: string) => {
    const found = is[name];
    if (typeof found !== 'function') throw new Error(`TypeScript ${typescript.version} has no ${name}`);
    return found;
  };
  const modifierFlag = new Map(MODIFIER_KEYWORDS.map(([keyword, flag]) => [Number(kind[keyword]), Number(enums.ModifierFlags[flag])]));
  const modifierFlagsOf = (node: Node7 | undefined): number => {
    let flags = 0;
    for (const modifier of (node?.modifiers as readonly Node7[] | undefined) ?? []) flags |= modifierFlag.get(modifier.kind) ?? 0;
    return flags;
  };
  const functionLike = new Set(
    [
      'MethodSignature',
      'CallSignature',
      'JSDocSignature',
      'ConstructSignature',
      'IndexSignature',
      'FunctionType',
      'JSDocFunctionType',
      'ConstructorType',
      'FunctionDeclaration',
      'MethodDeclaration',
      'Constructor',
      'GetAccessor',
      'SetAccessor',
      'FunctionExpression',
      'ArrowFunction',
    ].map((name) => Number(kind[name])),
  );
  const nodeTests = Object.fromEntries(
    [
      'isArrayLiteralExpression',
      'isArrayTypeNode',
      'isArrowFunction',
      'isAsExpression',
      'isCallExpression',
      'isClassDeclaration',
      'isConstructorDeclaration',
      'isDecorator',
      'isEnumDeclaration',
      'isExportAssignment',
      'isExportDeclaration',
      'isFunctionDeclaration',
      'isFunctionExpression',
      'isFunctionTypeNode',
      'isIdentifier',
      'isImportDeclaration',
      'isImportEqualsDeclaration',
      'isImportTypeNode',
      'isInterfaceDeclaration',
      'isJSDoc',
      'isJSDocParameterTag',
      'isJSDocReturnTag',
      'isJSDocTypeTag',
      'isLiteralTypeNode',
      'isMethodDeclaration',
      'isModuleBlock',
      'isModuleDeclaration',
      'isNamedImports',
      'isNamedTupleMember',
      'isNamespaceImport',
      'isNoSubstitutionTemplateLiteral',
      'isNumericLiteral',
      'isObjectBindingPattern',
      'isObjectLiteralExpression',
      'isOptionalTypeNode',
      'isParenthesizedExpression',
      'isParenthesizedTypeNode',
      'isPrefixUnaryExpression',
      'isPrivateIdentifier',
      'isPropertyAccessExpression',
      'isPropertyAssignment',
      'isRestTypeNode',
      'isSatisfiesExpression',
      'isSourceFile',
      'isStringLiteral',
      'isTupleTypeNode',
      'isTypeAliasDeclaration',
      'isTypeOperatorNode',
      'isTypeReferenceNode',
      'isUnionTypeNode',
      'isVariableDeclaration',
      'isVariableStatement',
    ].map((name) => [name, test(name)]),
  );
  const surface = {
    ...nodeTests,
    // A test by kind where TypeScript 7 names the test otherwise, or has none.
    isTypeAssertionExpression: (node: Node7) => node.kind === kind.TypeAssertionExpression,
    isClassLike: (node: Node7 | undefined) => node !== undefined && (node.kind === kind.ClassDeclaration || node.kind === kind.ClassExpression),
    isFunctionLike: (node: Node7 | undefined) => node !== undefined && functionLike.has(node.kind),
    SyntaxKind: kind,
    TypeFlags: enums.TypeFlags,
    ObjectFlags: enums.ObjectFlags,
    SymbolFlags: enums.SymbolFlags,
    ModifierFlags: enums.ModifierFlags,
    ElementFlags: enums.ElementFlags,
    // The front end's own numbering, read back by its checker's `getIndexTypeOfType`.
    IndexKind: { String: 0, Number: 1 },
    ScriptTarget: { Latest: 99 },
    JSDocParsingMode: { ParseAll: 0 },
    findAncestor: (node: Node7 | undefined, callback: (node: Node7) => boolean | 'quit') => {
      for (let current = node; current; current = current.parent) {
        const found = callback(current);
        if (found === 'quit') return undefined;
        if (found) return current;
      }
      return undefined;
    },
    // A variable's modifiers are its statement's (`export const x = …`).
    getCombinedModifierFlags: (node: Node7) => {
      let flags = modifierFlagsOf(node);
      let current: Node7 | undefined = node;
      if (current.kind === kind.VariableDeclaration) current = current.parent;
      if (current?.kind === kind.VariableDeclarationList) {
        flags |= modifierFlagsOf(current);
        current = current.parent;
      }
      if (current?.kind === kind.VariableStatement && current !== node) flags |= modifierFlagsOf(current);
      return flags;
    },
    getDecorators: (node: Node7) => {
      const decorators = ((node.modifiers as readonly Node7[] | undefined) ?? []).filter((modifier) => modifier.kind === kind.Decorator);
      return decorators.length > 0 ? decorators : undefined;
    },
    getJSDocCommentsAndTags: (node: Node7) => jsDocCommentsAndTags(typescript, node),
    getJSDocTags: (node: Node7) =>
      jsDocCommentsAndTags(typescript, node).flatMap((entry) => (entry.kind === kind.JSDoc ? ((entry.tags as readonly Node7[] | undefined) ?? []) : [entry])),
    getLeadingCommentRanges: (text: string, pos: number) => typescript.getLeadingCommentRanges(text, pos),
    getTrailingCommentRanges: (text: string, pos: number) => typescript.getTrailingCommentRanges(text, pos),
    getTextOfJSDocComment: (comment: unknown) => typescript.getTextOfJSDocComment(comment),
    isExternalModule: (file: { externalModuleIndicator?: unknown }) => file.externalModuleIndicator !== undefined,
    // TypeScript 7 parses every doc comment: a file of the program is read as it is; anything else is
    // a lone comment the JSDoc reader parses on its own.
    createSourceFile: (fileName: string, text: string) => {
      const known = project.program.getSourceFile(fileName);
      return known && known.text === text ? known : parseLoneComment(typescript, fileName, text);
    },
    sys: { readFile: (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined) },
  };
  return surface as unknown as TypeScriptSurface;
}
