import type { ts } from '../typescript.js';
import type { Checker7 } from './typescript-7-api.js';
import { rawNode, rawSignature, rawSymbol, rawType, type Views7 } from './views-7.js';

/** TypeScript 6 answers every type question (with its error type at worst); TypeScript 7 may answer none. */
function noType(): never {
  throw new Error('TypeScript 7 gave no type where TypeScript 6 gives one');
}

/** Thenables are unwrapped this deep at most (`getAwaitedType` of a `then` returning a thenable …). */
const MAX_AWAIT_DEPTH = 16;

/**
 * TypeScript 7's checker behind the methods of TypeScript 6's the analysis calls. Most are the same
 * question asked of the native compiler; the few TypeScript 7's API lacks (`getAwaitedType`,
 * `getIndexTypeOfType`, the `true` and `false` types) are answered from what it has.
 */
export function checkerView(views: Views7): ts.TypeChecker {
  const checker: Checker7 = views.project.checker;
  const { TypeFlags } = views.enums;
  const flag = (name: string) => Number(TypeFlags[name]);
  let booleans: { true: ts.Type; false: ts.Type } | undefined;
  const booleanLiterals = () => {
    if (!booleans) {
      const members = (views.type(checker.getBooleanType()) as ts.UnionType).types;
      const literal = (value: 'true' | 'false') => members.find((member: ts.Type) => (member as unknown as { intrinsicName: string }).intrinsicName === value)!;
      booleans = { true: literal('true'), false: literal('false') };
    }
    return booleans;
  };
  const view = {
    getSymbolAtLocation: (node: ts.Node) => views.symbol(checker.getSymbolAtLocation(rawNode(node))),
    getTypeAtLocation: (node: ts.Node) => views.type(checker.getTypeAtLocation(rawNode(node))) ?? noType(),
    getTypeOfSymbol: (symbol: ts.Symbol) => views.type(checker.getTypeOfSymbol(rawSymbol(symbol))) ?? noType(),
    getTypeFromTypeNode: (node: ts.TypeNode) => views.type(checker.getTypeFromTypeNode(rawNode(node))) ?? noType(),
    getNonNullableType: (type: ts.Type) => views.type(checker.getNonNullableType(rawType(type))) ?? type,
    getTypeArguments: (type: ts.TypeReference) => checker.getTypeArguments(rawType(type)).map((argument) => views.type(argument)),
    getPropertiesOfType: (type: ts.Type) => checker.getPropertiesOfType(rawType(type)).map((symbol) => views.symbol(symbol)),
    getPropertyOfType: (type: ts.Type, name: string) => views.symbol(checker.getPropertyOfType(rawType(type), name)),
    getIndexInfosOfType: (type: ts.Type) =>
      checker
        .getIndexInfosOfType(rawType(type))
        .map((info) => ({ keyType: views.type(info.keyType), type: views.type(info.valueType), isReadonly: info.isReadonly })),
    getIndexTypeOfType: (type: ts.Type, kind: number) => {
      // IndexKind: 0 string, 1 number (the surface's numbering); the index signature for exactly that key.
      const key = kind === 1 ? flag('Number') : flag('String');
      const info = checker.getIndexInfosOfType(rawType(type)).find((candidate) => (candidate.keyType.flags & key) !== 0);
      return info ? views.type(info.valueType) : undefined;
    },
    getBaseTypes: (type: ts.InterfaceType) => checker.getBaseTypes(rawType(type)).map((base) => views.type(base)),
    getAliasedSymbol: (symbol: ts.Symbol) => views.symbol(checker.getAliasedSymbol(rawSymbol(symbol))),
    getExportsOfModule: (symbol: ts.Symbol) => checker.getExportsOfModule(rawSymbol(symbol)).map((exported) => views.symbol(exported)),
    getSignatureFromDeclaration: (node: ts.SignatureDeclaration) => views.signature(checker.getSignatureFromDeclaration(rawNode(node))),
    getReturnTypeOfSignature: (signature: ts.Signature) => views.type(checker.getReturnTypeOfSignature(rawSignature(signature))) ?? noType(),
    isArrayType: (type: ts.Type) => checker.isArrayType(rawType(type)),
    isTupleType: (type: ts.Type) => checker.isTupleType(rawType(type)),
    typeToString: (type: ts.Type) => checker.typeToString(rawType(type)),
    getTrueType: () => booleanLiterals().true,
    getFalseType: () => booleanLiterals().false,
    getAwaitedType: (type: ts.Type) => awaited(type, 0),
  };
  /** What `await` of a value of `type` gives: a thenable's fulfilled value, member by member of a union. */
  const awaited = (type: ts.Type, depth: number): ts.Type | undefined => {
    if (depth > MAX_AWAIT_DEPTH) return undefined;
    if (type.flags & (flag('Any') | flag('Unknown'))) return type;
    if (type.isUnion()) {
      const members = type.types.map((member) => awaited(member, depth + 1));
      return members.every((member, index) => member === type.types[index]) ? type : undefined;
    }
    const then = view.getPropertyOfType(type, 'then');
    if (!then) return type;
    // `then(onfulfilled: (value: T) => …)`: T, awaited again.
    const [signature] = view.getTypeOfSymbol(then).getCallSignatures();
    const [onfulfilled] = signature?.getParameters() ?? [];
    if (!onfulfilled) return undefined;
    const callback = view.getNonNullableType(view.getTypeOfSymbol(onfulfilled));
    const [fulfilled] = callback.getCallSignatures();
    const [value] = fulfilled?.getParameters() ?? [];
    return value ? awaited(view.getTypeOfSymbol(value), depth + 1) : undefined;
  };
  return view as unknown as ts.TypeChecker;
}
