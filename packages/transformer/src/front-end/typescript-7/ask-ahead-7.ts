import type { AskAll7, Enums7, IndexInfo7, Question7, Symbol7, Type7 } from './typescript-7-api.js';

/** The checker view's answers by object id, which asking ahead fills (`checker-7.ts` reads them). */
export interface AnswerCaches7 {
  typeOfSymbol: Map<number, Type7 | undefined>;
  properties: Map<number, readonly Symbol7[]>;
  propertyByName: Map<string, Symbol7 | undefined>;
  typeArguments: Map<number, readonly Type7[]>;
  indexInfos: Map<number, readonly IndexInfo7[]>;
  /** Whether a reference is an array, by its target (`targetKey`). */
  arrays: Map<number, boolean>;
  /** Whether a reference is a tuple, by its target. */
  tuples: Map<number, boolean>;
}

export interface AskAhead7 {
  askAll: AskAll7;
  enums: Enums7;
  caches: AnswerCaches7;
  /** Whether a file (a declaration's path) is a library's: the default library or an external package. */
  isLibraryFile(path: string): boolean;
  /** Types already walked (a type is walked once per open project). */
  walked: Set<number>;
}

/** A reference's generic target (its id; the type's own when the compiler names none, negated to keep them apart). */
export function targetKey(type: Type7): number {
  return type.target || -type.id;
}

/**
 * Asks ahead, level by level, what the analysis will ask about the types reachable from `roots`
 * (TypeScript 7.1, whose API answers many questions in one round trip): a union's members, an
 * object's symbol, a reference's type arguments and whether it is an array, then a reference's target, an object's
 * properties, index signatures and signatures, then its properties' types — three round trips per
 * level of the type graph instead of a question per type and kind. A library's interface or
 * reference (`Date`, `Array<T>`, `Promise<T>`, a method) is not opened: the analysis maps it by name
 * and type arguments (and asks only whether it is a thenable). The answers land in the checker view's caches
 * and the client's own, so the analysis, asking afterwards in its own order, waits for none.
 */
export function askAhead(roots: readonly (Type7 | undefined)[], ahead: AskAhead7): void {
  const { askAll, caches, walked } = ahead;
  const flag = (name: string) => Number(ahead.enums.TypeFlags[name]);
  const objectFlag = (name: string) => Number(ahead.enums.ObjectFlags[name]);
  const [UNION_OR_INTERSECTION, OBJECT, INTERSECTION] = [flag('Union') | flag('Intersection'), flag('Object'), flag('Intersection')];
  const [REFERENCE, MAPPED] = [objectFlag('Reference'), objectFlag('Mapped')];
  const signatureKinds = [Number(ahead.enums.SignatureKind.Call), Number(ahead.enums.SignatureKind.Construct)];

  let level = unwalked(roots, walked);
  while (level.length > 0) {
    const next: (Type7 | undefined)[] = [];
    // 1. What a type's flags say to ask.
    const first: Question7[] = [];
    for (const type of level) {
      if (type.flags & UNION_OR_INTERSECTION) first.push({ ask: 'types', type });
      if (!(type.flags & OBJECT)) continue;
      if (type.symbol) first.push({ ask: 'symbol', type });
      if (type.objectFlags & REFERENCE) {
        if (!caches.typeArguments.has(type.id)) first.push({ ask: 'typeArguments', type });
        if (!caches.arrays.has(targetKey(type))) first.push({ ask: 'isArray', type });
        if (!caches.tuples.has(targetKey(type))) first.push({ ask: 'isTuple', type });
      }
    }
    const symbols = new Map<number, Symbol7 | undefined>();
    answer(askAll, first, (question, result) => {
      if (question.ask === 'types') next.push(...((result as readonly Type7[] | undefined) ?? []));
      else if (question.ask === 'symbol') symbols.set(question.type.id, result as Symbol7 | undefined);
      else if (question.ask === 'typeArguments') {
        caches.typeArguments.set(question.type.id, result as readonly Type7[]);
        next.push(...(result as readonly Type7[]));
      } else if (question.ask === 'isArray') caches.arrays.set(targetKey(question.type), result as boolean);
      else if (question.ask === 'isTuple') caches.tuples.set(targetKey(question.type), result as boolean);
    });

    // 2. An object's members: its properties, index signatures and signatures. An array or a tuple
    //    is read through its type arguments; of a library's type only whether it is a thenable,
    //    unless it is a mapped type (`Partial<T>`, `Record<K, V>`: data shapes).
    const second: Question7[] = [];
    for (const type of level) {
      if (!(type.flags & (OBJECT | INTERSECTION))) continue;
      const reference = (type.objectFlags & REFERENCE) !== 0;
      // A tuple's element flags and a generic instance's kind (does it extend Array?) are read from its
      // target, which the client keeps once fetched: asked here with the rest.
      if (reference && type.target && !caches.arrays.get(targetKey(type))) second.push({ ask: 'target', type });
      if (reference && (caches.arrays.get(targetKey(type)) || caches.tuples.get(targetKey(type)))) continue;
      const symbol = symbols.get(type.id);
      if (!(type.objectFlags & MAPPED) && symbol?.declarations?.some((d) => ahead.isLibraryFile(d.path))) {
        if (!caches.propertyByName.has(`${type.id}\0then`)) second.push({ ask: 'property', type, name: 'then' });
        continue;
      }
      if (!caches.properties.has(type.id)) second.push({ ask: 'properties', type });
      if (!caches.indexInfos.has(type.id)) second.push({ ask: 'indexInfos', type });
      if (type.flags & OBJECT) for (const kind of signatureKinds) second.push({ ask: 'signatures', type, kind });
    }
    const unknownTypes: Symbol7[] = [];
    answer(askAll, second, (question, result) => {
      if (question.ask === 'target') return; // kept by the client
      if (question.ask === 'property') caches.propertyByName.set(`${question.type.id}\0then`, result as Symbol7 | undefined);
      else if (question.ask === 'properties') {
        const found = result as readonly Symbol7[];
        caches.properties.set(question.type.id, found);
        for (const property of found) if (!caches.typeOfSymbol.has(property.id)) unknownTypes.push(property);
      } else if (question.ask === 'indexInfos') {
        const infos = result as readonly IndexInfo7[];
        caches.indexInfos.set(question.type.id, infos);
        for (const info of infos) next.push(info.keyType, info.valueType);
      }
    });

    // 3. The properties' types, in one question.
    const unique = [...new Map(unknownTypes.map((symbol) => [symbol.id, symbol])).values()];
    if (unique.length > 0) {
      const [types] = askAll([{ ask: 'typesOfSymbols', symbols: unique }]);
      (types as readonly (Type7 | undefined)[]).forEach((type, index) => {
        caches.typeOfSymbol.set(unique[index]!.id, type);
        next.push(type);
      });
    }
    level = unwalked(next, walked);
  }
}

function answer(askAll: AskAll7, questions: readonly Question7[], use: (question: Question7, result: unknown) => void): void {
  const results = askAll(questions);
  questions.forEach((question, index) => use(question, results[index]));
}

/** The types not walked yet, each once, marked as walked. */
function unwalked(types: readonly (Type7 | undefined)[], walked: Set<number>): Type7[] {
  const result: Type7[] = [];
  for (const type of types) {
    if (!type || walked.has(type.id)) continue;
    walked.add(type.id);
    result.push(type);
  }
  return result;
}
