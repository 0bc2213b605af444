import ts from 'typescript';
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
export class DefinitionRegistry {
  readonly definitions = new Map<string, JsonSchema>();
  /** The types being mapped, outermost first. */
  private readonly stack: ts.Type[] = [];
  private readonly recursive = new Set<ts.Type>();
  private readonly names = new Map<ts.Type, string>();
  private readonly usedNames = new Set<string>();
  private readonly edited = new WeakSet<JsonSchema>();
  /** `$ref`s handed out so far: a schema built while this changed depends on this registry. */
  references = 0;

  constructor(private readonly checker: ts.TypeChecker) {}

  /** Maps `type` with `build`, or returns a `$ref` when `type` is already being mapped further up. */
  withDefinition(type: ts.Type, build: () => JsonSchema): JsonSchema {
    const index = this.stack.lastIndexOf(type);
    if (index >= 0 && (isNamed(type) || !this.stack.slice(index + 1).some(isNamed))) {
      this.recursive.add(type);
      this.references++;
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
    this.references++;
    return { $ref: `#/$defs/${name}` };
  }

  /**
   * Applies `edit` to the finished definition of `type`, once per built definition: the docs of a
   * recursive named type (`@default`, `@nullable`, constraints) belong to its definition, not to each `$ref`.
   */
  editDefinition(type: ts.Type, edit: (schema: JsonSchema) => JsonSchema): void {
    const name = this.names.get(type);
    const current = name === undefined || this.stack.includes(type) ? undefined : this.definitions.get(name);
    if (!current || this.edited.has(current)) return;
    const next = edit(current);
    this.edited.add(next);
    this.definitions.set(name!, next);
  }

  /** The collected `$defs`, sorted by name so output is stable. */
  toDefs(): Record<string, JsonSchema> | undefined {
    if (this.definitions.size === 0) return undefined;
    return Object.fromEntries([...this.definitions.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private nameOf(type: ts.Type): string {
    const existing = this.names.get(type);
    if (existing) return existing;
    const base = sanitise(this.rawName(type));
    let name = base;
    for (let n = 2; this.usedNames.has(name); n++) name = `${base}_${n}`;
    this.usedNames.add(name);
    this.names.set(type, name);
    return name;
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
