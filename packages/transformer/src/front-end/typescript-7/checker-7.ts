import type { ts } from '../typescript.js';
import { askAhead, targetKey, type AnswerCaches7 } from './ask-ahead-7.js';
import type { Checker7, Node7, Signature7, SourceFile7, Symbol7, Type7 } from './typescript-7-api.js';
import { rawNode, rawSignature, rawSymbol, rawType, type Views7 } from './views-7.js';

/** A signature whose return type is written: it answers with the annotation, and asks the compiler for the rest when asked. */
interface DeclaredSignature {
  returnTypeNode: Node7;
}

function declaredSignature(returnTypeNode: Node7, fetch: () => ts.Signature | undefined): ts.Signature {
  const real = () => fetch() ?? noType();
  const known: DeclaredSignature & Record<string, unknown> = {
    returnTypeNode,
    get declaration() {
      return (real() as unknown as { declaration: unknown }).declaration;
    },
    getParameters: () => real().getParameters(),
    getTypeParameters: () => real().getTypeParameters(),
    getReturnType: () => real().getReturnType(),
  };
  return known as unknown as ts.Signature;
}

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
 *
 * Every question is a round trip to the compiler's process, so none is asked twice (answers are
 * kept per node, type and symbol), and questions come in batches where the API takes them: the
 * first question about a node of a file asks the same of every such node in that file at once (its
 * type nodes, its parameters, the names the analysis resolves), and the properties of a type come
 * with their types.
 */
export function checkerView(views: Views7): ts.TypeChecker {
  const checker: Checker7 = views.project.checker;
  const { TypeFlags, SyntaxKind } = views.enums;
  const flag = (name: string) => Number(TypeFlags[name]);
  const kind = (name: string) => Number(SyntaxKind[name]);
  const isTypeNode = views.isTypeNode;

  const memo = <K, V>(map: Map<K, V>, key: K, compute: () => V): V => {
    if (map.has(key)) return map.get(key)!;
    const value = compute();
    map.set(key, value);
    return value;
  };

  // Per file, its nodes of each kind the analysis asks about (one walk), and which kinds were asked.
  type Kind = 'typeNodes' | 'parameters' | 'names';
  const collected = new Map<SourceFile7, Record<Kind, Node7[]>>();
  /** The files the analysis is reading now (`readFiles`). */
  let readingFiles: readonly SourceFile7[] = [];
  let readingSet = new Set<SourceFile7>();
  const prefetched = new Map<SourceFile7, Set<Kind>>();
  const typeFromNode = new Map<Node7, Type7 | undefined>();
  const typeAtNode = new Map<Node7, Type7 | undefined>();
  const symbolAtNode = new Map<Node7, Symbol7 | undefined>();
  const collect = (file: SourceFile7): Record<Kind, Node7[]> =>
    memo(collected, file, () => {
      const found: Record<Kind, Node7[]> = { typeNodes: [], parameters: [], names: [file] };
      // Bodies hold nothing a tool's signature can reach (a node there is asked about alone, if ever).
      const visit = (current: Node7): void => {
        if (isTypeNode(current)) found.typeNodes.push(current);
        else if (current.kind === kind('Parameter')) found.parameters.push(current);
        else if (isResolvedName(current)) found.names.push(current);
        if (current.kind !== kind('Block')) current.forEachChild(visit);
      };
      file.forEachChild(visit);
      return found;
    });
  const prefetch = (node: Node7, what: Kind) => {
    const file = node.getSourceFile();
    // Asked already for this node's file (a node outside the kind's batch, asked alone): nothing to batch.
    if (prefetched.get(file)?.has(what)) return;
    // The first question of a kind about one of the files the analysis is reading is asked of all of them at
    // once (it reads each of them: `readFiles`); a file reached otherwise (a library's, one reused) is asked alone.
    const files = readingSet.has(file) ? readingFiles : [file];
    const nodes: Node7[] = [];
    for (const each of files) {
      const done = memo(prefetched, each, () => new Set<Kind>());
      if (done.has(what)) continue;
      done.add(what);
      nodes.push(...collect(each)[what]);
    }
    if (nodes.length === 0) return;
    if (what === 'names') checker.getSymbolAtLocation(nodes).forEach((symbol, index) => symbolAtNode.set(nodes[index]!, symbol));
    else {
      const target = what === 'typeNodes' ? typeFromNode : typeAtNode;
      checker.getTypeAtLocation(nodes).forEach((type, index) => target.set(nodes[index]!, type));
    }
  };

  /** The names whose symbols the analysis asks for: callees (`tool`), imported modules, type names. */
  const isResolvedName = (node: Node7): boolean => {
    const parent = node.parent;
    if (!parent) return false;
    if (node.kind === kind('StringLiteral')) return parent.kind === kind('ImportDeclaration') || parent.kind === kind('ExportDeclaration');
    if (node.kind !== kind('Identifier')) return false;
    return (
      (parent.kind === kind('TypeReference') && parent.typeName === node) ||
      (parent.kind === kind('CallExpression') && parent.expression === node) ||
      (parent.kind === kind('PropertyAccessExpression') && parent.name === node && parent.parent?.kind === kind('CallExpression'))
    );
  };

  const caches: AnswerCaches7 = {
    typeOfSymbol: new Map(),
    properties: new Map(),
    propertyByName: new Map(),
    typeArguments: new Map(),
    indexInfos: new Map(),
    arrays: new Map(),
    tuples: new Map(),
  };
  const { typeOfSymbol, properties, propertyByName, typeArguments, indexInfos, arrays, tuples } = caches;
  const ahead = views.project.askAll && {
    askAll: views.project.askAll,
    enums: views.enums,
    caches,
    isLibraryFile: (path: string) => views.isLibraryFile(path),
    walked: new Set<number>(),
  };
  const text = new Map<number, string>();
  const nonNullable = new Map<number, Type7 | undefined>();
  const baseTypes = new Map<number, readonly Type7[]>();
  const aliased = new Map<number, Symbol7>();
  const exports = new Map<number, readonly Symbol7[]>();
  const signatureOf = new Map<Node7, Signature7 | undefined>();
  const declaredSignatures = new Map<Node7, ts.Signature>();
  const returnType = new Map<number, Type7 | undefined>();

  const rawTypeOfSymbol = (symbol: Symbol7) => memo(typeOfSymbol, symbol.id, () => checker.getTypeOfSymbol(symbol));
  const rawProperties = (type: Type7) =>
    memo(properties, type.id, () => {
      const found = checker.getPropertiesOfType(type);
      // Their types are asked for next (level by level): one question for all.
      const unknown = found.filter((symbol) => !typeOfSymbol.has(symbol.id));
      if (unknown.length > 1) checker.getTypeOfSymbol(unknown).forEach((propertyType, index) => typeOfSymbol.set(unknown[index]!.id, propertyType));
      return found;
    });

  const isReference = (type: ts.Type) =>
    (type.flags & flag('Object')) !== 0 && ((type as ts.ObjectType).objectFlags & Number(views.enums.ObjectFlags.Reference)) !== 0;
  const targetOf = (type: ts.Type) => targetKey(rawType(type));
  const symbolAt = (node: Node7): Symbol7 | undefined => {
    if (!symbolAtNode.has(node)) prefetch(node, 'names');
    return memo(symbolAtNode, node, () => checker.getSymbolAtLocation(node));
  };
  const exportsOf = (module: Symbol7) => memo(exports, module.id, () => checker.getExportsOfModule(module));
  /**
   * What `import { Name } from './module'` stands for, from the module's exports (asked once per module):
   * the compiler would be asked once per import in every file. A re-exported name is resolved once
   * for all its importers; other imports (default, namespace) are asked as they are.
   */
  const importedFromExports = (alias: Symbol7): Symbol7 | undefined => {
    const [handle, ...others] = alias.declarations ?? [];
    if (!handle || others.length > 0 || handle.kind !== kind('ImportSpecifier')) return undefined;
    const specifier = views.rawNodeOf(handle);
    const declaration = specifier?.parent?.parent?.parent;
    if (!specifier || declaration?.kind !== kind('ImportDeclaration')) return undefined;
    const module = symbolAt(declaration.moduleSpecifier as Node7);
    const name = ((specifier.propertyName ?? specifier.name) as { text?: string } | undefined)?.text;
    if (!module || name === undefined) return undefined;
    const target = exportsOf(module).find((exported) => exported.name === name);
    if (!target || !(target.flags & Number(views.enums.SymbolFlags.Alias))) return target;
    // A re-export (`export { tool } from './tool.js'`): what it stands for, asked once for every file importing it.
    return aliasTarget(target);
  };
  const aliasTarget = (alias: Symbol7): Symbol7 => memo(aliased, alias.id, () => importedFromExports(alias) ?? checker.getAliasedSymbol(alias));

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
    getSymbolAtLocation: (node: ts.Node) => views.symbol(symbolAt(rawNode(node))),
    getTypeAtLocation: (node: ts.Node) => {
      const raw = rawNode(node);
      if (raw.kind === kind('Parameter') && !typeAtNode.has(raw)) prefetch(raw, 'parameters');
      return views.type(memo(typeAtNode, raw, () => checker.getTypeAtLocation(raw))) ?? noType();
    },
    getTypeFromTypeNode: (node: ts.TypeNode) => {
      const raw = rawNode(node);
      if (!typeFromNode.has(raw)) prefetch(raw, 'typeNodes');
      return views.type(memo(typeFromNode, raw, () => checker.getTypeFromTypeNode(raw))) ?? noType();
    },
    getTypeOfSymbol: (symbol: ts.Symbol) => views.type(rawTypeOfSymbol(rawSymbol(symbol))) ?? noType(),
    getNonNullableType: (type: ts.Type) => views.type(memo(nonNullable, rawType(type).id, () => checker.getNonNullableType(rawType(type)))) ?? type,
    getTypeArguments: (type: ts.TypeReference) =>
      memo(typeArguments, rawType(type).id, () => checker.getTypeArguments(rawType(type))).map((argument) => views.type(argument)),
    getPropertiesOfType: (type: ts.Type) => rawProperties(rawType(type)).map((symbol) => views.symbol(symbol)),
    getPropertyOfType: (type: ts.Type, name: string) =>
      views.symbol(
        memo(propertyByName, `${rawType(type).id}\0${name}`, () =>
          properties.has(rawType(type).id)
            ? properties.get(rawType(type).id)!.find((symbol) => symbol.name === name)
            : checker.getPropertyOfType(rawType(type), name),
        ),
      ),
    getIndexInfosOfType: (type: ts.Type) =>
      memo(indexInfos, rawType(type).id, () => checker.getIndexInfosOfType(rawType(type))).map((info) => ({
        keyType: views.type(info.keyType),
        type: views.type(info.valueType),
        isReadonly: info.isReadonly,
      })),
    getIndexTypeOfType: (type: ts.Type, indexKind: number) => {
      // IndexKind: 0 string, 1 number (the surface's numbering); the index signature for exactly that key.
      const key = indexKind === 1 ? flag('Number') : flag('String');
      const info = memo(indexInfos, rawType(type).id, () => checker.getIndexInfosOfType(rawType(type))).find(
        (candidate) => (candidate.keyType.flags & key) !== 0,
      );
      return info ? views.type(info.valueType) : undefined;
    },
    getBaseTypes: (type: ts.InterfaceType) => memo(baseTypes, rawType(type).id, () => checker.getBaseTypes(rawType(type))).map((base) => views.type(base)),
    getAliasedSymbol: (symbol: ts.Symbol) => {
      const raw = rawSymbol(symbol);
      return views.symbol(aliasTarget(raw));
    },
    getExportsOfModule: (symbol: ts.Symbol) => exportsOf(rawSymbol(symbol)).map((exported) => views.symbol(exported)),
    getSignatureFromDeclaration: (node: ts.SignatureDeclaration) => {
      const raw = rawNode(node);
      const fetch = () => views.signature(memo(signatureOf, raw, () => checker.getSignatureFromDeclaration(raw)));
      // A declared return type is the type of its annotation (asked with the file's other type nodes); the
      // signature itself is fetched only if something else is asked of it.
      return raw.type ? memo(declaredSignatures, raw, () => declaredSignature(raw.type as Node7, fetch)) : fetch();
    },
    getReturnTypeOfSignature: (signature: ts.Signature) => {
      const annotation = (signature as unknown as Partial<DeclaredSignature>).returnTypeNode;
      if (annotation) return view.getTypeFromTypeNode(annotation as unknown as ts.TypeNode);
      const raw = rawSignature(signature);
      return views.type(memo(returnType, raw.id, () => checker.getReturnTypeOfSignature(raw))) ?? noType();
    },
    // Arrays and tuples are references to a generic type: anything else is neither, without asking.
    // Whether a reference is an array or a tuple depends only on its target: asked once per target.
    isArrayType: (type: ts.Type) => isReference(type) && memo(arrays, targetOf(type), () => checker.isArrayType(rawType(type))),
    isTupleType: (type: ts.Type) => isReference(type) && memo(tuples, targetOf(type), () => checker.isTupleType(rawType(type))),
    typeToString: (type: ts.Type) => memo(text, rawType(type).id, () => checker.typeToString(rawType(type))),
    getTrueType: () => booleanLiterals().true,
    getFalseType: () => booleanLiterals().false,
    getAwaitedType: (type: ts.Type) => awaited(type, 0),
    readFiles: (files: readonly ts.SourceFile[]) => {
      readingFiles = files.map((file) => rawNode(file) as SourceFile7);
      readingSet = new Set(readingFiles);
    },
    // Where the API batches (7.1): what the tools' parameter and declared return types reach is asked ahead.
    ...(ahead && {
      readSignatures: (functions: readonly ts.SignatureDeclaration[]) => {
        const parameters = functions.flatMap((fn) => fn.parameters.map((parameter) => rawNode(parameter)));
        const returns = functions.flatMap((fn) => (fn.type ? [rawNode(fn.type)] : []));
        const roots = [
          ...parameters.map((parameter) => (prefetch(parameter, 'parameters'), typeAtNode.get(parameter))),
          ...returns.map((annotation) => (prefetch(annotation, 'typeNodes'), typeFromNode.get(annotation))),
        ];
        askAhead(roots, ahead);
      },
    }),
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
