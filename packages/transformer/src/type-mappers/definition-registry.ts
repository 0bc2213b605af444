import { ts } from '../front-end/typescript.js';
import type { JsonSchema } from '@toolwright/schema';

/**
 * `$defs` of one root schema. Named object types are inlined (models read flat schemas best) unless
 * they refer to themselves: a type met again while it is still being mapped becomes a `$ref`, and its
 * finished schema moves into `$defs` under a stable name (the type's name; `_2`, `_3` on collisions,
 * in the order types are first met, which is the order of the signature).
 *
 * A cycle is closed at a *named* type (an interface, class or alias) whenever it has one: an anonymous
 * type met again (`{ all: Condition[] }`, or `Category | null`) is mapped once more, inline, and the
 * named type inside it is the one that becomes the `$ref`.
 */
/**
 * Definitions already given their type's tags (`editDefinition`). Shared by every registry: the
 * schema cache hands a definition built in one registry to others, and it must not be tagged twice.
 */
const EDITED = new WeakSet<JsonSchema>();

export class DefinitionRegistry {
  readonly definitions = new Map<string, JsonSchema>();
  /** The types being mapped, outermost first. */
  private readonly stack: ts.Type[] = [];
  /** Types met again while being mapped, each with how many there were before it: they become `$defs` entries. */
  private readonly recursive = new Map<ts.Type, number>();
  private readonly names = new Map<ts.Type, string>();
  private readonly usedNames = new Set<string>();
  /** When each type got its name: names are given in that order, so an adopted set is given them in it too. */
  private readonly nameOrder = new Map<ts.Type, number>();
  /** Every type mapped, every type a `$ref` was handed out for, every definition made, in order (see `mark`). */
  private readonly visited: ts.Type[] = [];
  private readonly referenced: ts.Type[] = [];
  private readonly defined: ts.Type[] = [];

  constructor(private readonly checker: ts.TypeChecker) {}

  /** Maps `type` with `build`, or returns a `$ref` when `type` is already being mapped further up. */
  withDefinition(type: ts.Type, build: () => JsonSchema): JsonSchema {
    this.visited.push(type);
    const index = this.stack.lastIndexOf(type);
    if (index >= 0 && (isNamed(type) || !this.stack.slice(index + 1).some(isNamed))) {
      if (!this.recursive.has(type)) this.recursive.set(type, this.recursive.size);
      this.referenced.push(type);
      return { $ref: `#/$defs/${this.nameOf(type)}` };
    }
    this.stack.push(type);
    let schema: JsonSchema;
    try {
      schema = build();
    } finally {
      this.stack.pop();
    }
    if (!this.recursive.has(type) || this.stack.includes(type)) return schema;
    const name = this.nameOf(type);
    this.definitions.set(name, schema);
    this.defined.push(type);
    this.referenced.push(type);
    return { $ref: `#/$defs/${name}` };
  }

  /**
   * Applies `edit` to the finished definition of `type`, once per built definition: the docs of a
   * recursive named type (`@default`, `@nullable`, constraints) belong to its definition, not to each `$ref`.
   */
  editDefinition(type: ts.Type, edit: (schema: JsonSchema) => JsonSchema): void {
    const name = this.names.get(type);
    const current = name === undefined || this.stack.includes(type) ? undefined : this.definitions.get(name);
    if (!current || EDITED.has(current)) return;
    const next = edit(current);
    EDITED.add(next);
    this.definitions.set(name!, next);
  }

  /** A point in this registry's history, for `usedSince`. */
  mark(): RegistryMark {
    return { visited: this.visited.length, referenced: this.referenced.length, defined: this.defined.length, recursive: this.recursive.size };
  }

  /**
   * What a schema built since `mark` (outside any `withDefinition` of its own) needs from this
   * registry: the definitions made meanwhile, in the order their names were given, and the types it
   * mapped. `undefined` when the build depended on what this registry had seen before: it met a type
   * being mapped further up or one that was already a definition (which it then defines again,
   * recursive or not), or it refers to a definition not made meanwhile.
   */
  usedSince(mark: RegistryMark): SharedDefinitions | undefined {
    const visited = new Set(this.visited.slice(mark.visited));
    if (this.stack.some((type) => visited.has(type))) return undefined;
    for (const type of visited) if ((this.recursive.get(type) ?? Infinity) < mark.recursive) return undefined;
    const defined = new Set(this.defined.slice(mark.defined));
    for (let i = mark.referenced; i < this.referenced.length; i++) if (!defined.has(this.referenced[i]!)) return undefined;
    const definitions = [...defined]
      .map((type) => ({ type, name: this.names.get(type)!, schema: this.definitions.get(this.names.get(type)!)! }))
      .sort((a, b) => this.order(a.type) - this.order(b.type));
    return { definitions, visited: [...visited] };
  }

  /**
   * Takes on what a schema built in another registry needs (see `usedSince`), when building it here
   * would give the same schema: none of the types it mapped is being mapped here further up or is a
   * definition here that it inlines, and each definition gets the same name here as there (the
   * schema's `$ref`s name them). Returns false, changing nothing, otherwise.
   */
  adopt(shared: SharedDefinitions): boolean {
    if (this.stack.length > 0 && shared.visited.some((type) => this.stack.includes(type))) return false;
    if (this.recursive.size > 0 && shared.visited.some((type) => this.recursive.has(type) && !shared.definitions.some((d) => d.type === type))) return false;
    const taken = new Set<string>();
    for (const { type, name } of shared.definitions) {
      const existing = this.names.get(type);
      if (existing !== undefined ? existing !== name : this.freeName(type, taken) !== name) return false;
      taken.add(name);
    }
    this.visited.push(...shared.visited);
    for (const { type, name, schema } of shared.definitions) {
      if (!this.names.has(type)) {
        this.names.set(type, name);
        this.usedNames.add(name);
        this.nameOrder.set(type, this.nameOrder.size);
      }
      if (!this.recursive.has(type)) this.recursive.set(type, this.recursive.size);
      this.definitions.set(name, schema);
      this.defined.push(type);
      this.referenced.push(type);
    }
    return true;
  }

  /** The collected `$defs`, sorted by name so output is stable. */
  toDefs(): Record<string, JsonSchema> | undefined {
    if (this.definitions.size === 0) return undefined;
    return Object.fromEntries([...this.definitions.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private nameOf(type: ts.Type): string {
    const existing = this.names.get(type);
    if (existing) return existing;
    const name = this.freeName(type);
    this.usedNames.add(name);
    this.names.set(type, name);
    this.nameOrder.set(type, this.nameOrder.size);
    return name;
  }

  /** The name `type` would be given now (also avoiding `reserved`). */
  private freeName(type: ts.Type, reserved: ReadonlySet<string> = new Set()): string {
    const base = sanitise(this.rawName(type));
    let name = base;
    for (let n = 2; this.usedNames.has(name) || reserved.has(name); n++) name = `${base}_${n}`;
    return name;
  }

  private order(type: ts.Type): number {
    return this.nameOrder.get(type) ?? Infinity;
  }

  private rawName(type: ts.Type): string {
    const alias = type.aliasSymbol;
    if (alias) {
      const args = type.aliasTypeArguments?.map((arg) => this.checker.typeToString(arg)) ?? [];
      return [alias.name, ...args].join('_');
    }
    const symbolName = type.getSymbol()?.name;
    if (symbolName && !symbolName.startsWith('__')) {
      const isReference = ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0;
      const args = isReference ? this.checker.getTypeArguments(type as ts.TypeReference) : [];
      return [symbolName, ...args.map((arg) => this.checker.typeToString(arg))].join('_');
    }
    return 'Type';
  }
}

/** See `DefinitionRegistry.mark`. */
export interface RegistryMark {
  readonly visited: number;
  readonly referenced: number;
  readonly defined: number;
  readonly recursive: number;
}

/** A definition a cached schema needs in the `$defs` of the root schema it is used in. */
export interface SharedDefinition {
  readonly type: ts.Type;
  readonly name: string;
  readonly schema: JsonSchema;
}

/** What a cached schema needs from the root schema it is used in. */
export interface SharedDefinitions {
  readonly definitions: readonly SharedDefinition[];
  /** Every type mapped while building it. */
  readonly visited: readonly ts.Type[];
}

/** An interface, class or alias: a type with a name a reader recognises. */
function isNamed(type: ts.Type): boolean {
  if (type.aliasSymbol) return true;
  const name = type.getSymbol()?.name;
  return name !== undefined && !name.startsWith('__');
}

function sanitise(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  return cleaned.length > 0 ? cleaned : 'Type';
}
