import type { ts } from '../typescript.js';
import type { Enums7, Node7, NodeHandle7, Project7, Signature7, Symbol7, Type7, TypeScript7 } from './typescript-7-api.js';

/**
 * TypeScript 7's types, symbols and signatures presented in the shapes the analysis reads
 * (TypeScript 6's): one view per compiler object, so `===` and maps keyed by type work as they do on
 * TypeScript 6. What a view answers it asks once; the compiler's answers are cached by its own
 * client too, so a type shared by many tools costs one question.
 */
export class Views7 {
  private readonly types = new Map<number, TypeView>();
  private readonly symbols = new Map<number, SymbolView>();
  private readonly signatures = new Map<number, SignatureView>();
  private readonly nodes = new Map<string, Node7 | undefined>();

  readonly enums: Enums7;
  /** Whether a node is a type node (the checker view asks for all of a file's at once). */
  readonly isTypeNode: (node: Node7) => boolean;
  /** Which files are libraries' (the default library, external packages), as far as the program view has asked. */
  libraryFiles: ReadonlyMap<string, { isDefaultLibrary: boolean; isFromExternalLibrary: boolean }> = new Map();

  isLibraryFile(path: string): boolean {
    const origin = this.libraryFiles.get(path);
    return Boolean(origin?.isDefaultLibrary || origin?.isFromExternalLibrary);
  }

  constructor(
    readonly project: Project7,
    typescript: TypeScript7,
  ) {
    this.enums = typescript.enums;
    const test = typescript.is.isTypeNode;
    if (typeof test !== 'function') throw new Error(`TypeScript ${typescript.version} has no isTypeNode`);
    this.isTypeNode = test;
  }

  type(raw: Type7): ts.Type;
  type(raw: Type7 | undefined): ts.Type | undefined;
  type(raw: Type7 | undefined): ts.Type | undefined {
    if (!raw) return undefined;
    let view = this.types.get(raw.id);
    if (!view) this.types.set(raw.id, (view = new TypeView(raw, this)));
    return view as unknown as ts.Type;
  }

  symbol(raw: Symbol7): ts.Symbol;
  symbol(raw: Symbol7 | undefined): ts.Symbol | undefined;
  symbol(raw: Symbol7 | undefined): ts.Symbol | undefined {
    if (!raw) return undefined;
    let view = this.symbols.get(raw.id);
    if (!view) this.symbols.set(raw.id, (view = new SymbolView(raw, this)));
    return view as unknown as ts.Symbol;
  }

  signature(raw: Signature7 | undefined): ts.Signature | undefined {
    if (!raw) return undefined;
    let view = this.signatures.get(raw.id);
    if (!view) this.signatures.set(raw.id, (view = new SignatureView(raw, this)));
    return view as unknown as ts.Signature;
  }

  /** The node a handle names, from the program's own source file (so it is the node the analysis walked). */
  node(handle: NodeHandle7): ts.Node | undefined {
    return this.rawNodeOf(handle) as unknown as ts.Node | undefined;
  }

  rawNodeOf(handle: NodeHandle7): Node7 | undefined {
    const key = `${handle.path}\0${handle.index}`;
    if (!this.nodes.has(key)) this.nodes.set(key, handle.resolve(this.project));
    return this.nodes.get(key);
  }
}

/** The compiler object behind a view (the checker's arguments are views). */
export function rawType(type: ts.Type): Type7 {
  return (type as unknown as TypeView).raw;
}

export function rawSymbol(symbol: ts.Symbol): Symbol7 {
  return (symbol as unknown as SymbolView).raw;
}

export function rawSignature(signature: ts.Signature): Signature7 {
  return (signature as unknown as SignatureView).raw;
}

/** The node handed to TypeScript 7 (the analysis holds its nodes as they are). */
export function rawNode(node: ts.Node): Node7 {
  return node as unknown as Node7;
}

class TypeView {
  private symbolView: ts.Symbol | null | undefined;
  private aliasView: ts.Symbol | null | undefined;
  private members: readonly ts.Type[] | null | undefined;
  private targetView: ts.Type | undefined;
  private aliasArguments: readonly ts.Type[] | undefined;
  private callSignatures: readonly ts.Signature[] | undefined;
  private constructSignatures: readonly ts.Signature[] | undefined;

  constructor(
    readonly raw: Type7,
    private readonly views: Views7,
  ) {}

  get id(): number {
    return this.raw.id;
  }

  get flags(): number {
    return this.raw.flags;
  }

  get objectFlags(): number {
    return this.raw.objectFlags;
  }

  get value(): unknown {
    return this.raw.value;
  }

  get intrinsicName(): string {
    return this.raw.intrinsicName;
  }

  get elementFlags(): readonly number[] {
    return this.raw.elementFlags ?? [];
  }

  get fixedLength(): number {
    return this.raw.fixedLength;
  }

  get readonly(): boolean {
    return this.raw.readonly;
  }

  get texts(): readonly string[] {
    return this.raw.texts ?? [];
  }

  get symbol(): ts.Symbol | undefined {
    if (this.symbolView === undefined) this.symbolView = this.raw.symbol ? this.views.symbol(this.raw.getSymbol()) : null;
    return this.symbolView ?? undefined;
  }

  get aliasSymbol(): ts.Symbol | undefined {
    if (this.aliasView === undefined) this.aliasView = this.raw.aliasSymbol ? this.views.symbol(this.raw.getAliasSymbol()) : null;
    return this.aliasView ?? undefined;
  }

  get aliasTypeArguments(): readonly ts.Type[] | undefined {
    if (!this.raw.aliasTypeArguments?.length) return undefined;
    return (this.aliasArguments ??= this.raw.getAliasTypeArguments().map((type) => this.views.type(type)));
  }

  get types(): readonly ts.Type[] {
    if (this.members === undefined) this.members = this.raw.getTypes()?.map((type) => this.views.type(type)) ?? null;
    return this.members ?? [];
  }

  get target(): ts.Type {
    return (this.targetView ??= this.raw.target ? this.views.type(this.raw.getTarget()) : (this as unknown as ts.Type));
  }

  getSymbol(): ts.Symbol | undefined {
    return this.symbol;
  }

  getFlags(): number {
    return this.flags;
  }

  isUnion(): boolean {
    return (this.flags & Number(this.views.enums.TypeFlags.Union)) !== 0;
  }

  isIntersection(): boolean {
    return (this.flags & Number(this.views.enums.TypeFlags.Intersection)) !== 0;
  }

  isUnionOrIntersection(): boolean {
    return this.isUnion() || this.isIntersection();
  }

  isStringLiteral(): boolean {
    return (this.flags & Number(this.views.enums.TypeFlags.StringLiteral)) !== 0;
  }

  isNumberLiteral(): boolean {
    return (this.flags & Number(this.views.enums.TypeFlags.NumberLiteral)) !== 0;
  }

  isLiteral(): boolean {
    return (
      (this.flags &
        (Number(this.views.enums.TypeFlags.StringLiteral) |
          Number(this.views.enums.TypeFlags.NumberLiteral) |
          Number(this.views.enums.TypeFlags.BigIntLiteral))) !==
      0
    );
  }

  isTypeParameter(): boolean {
    return (this.flags & Number(this.views.enums.TypeFlags.TypeParameter)) !== 0;
  }

  isClassOrInterface(): boolean {
    return (this.objectFlags & Number(this.views.enums.ObjectFlags.ClassOrInterface)) !== 0;
  }

  getCallSignatures(): readonly ts.Signature[] {
    return (this.callSignatures ??= this.signaturesOf('Call'));
  }

  getConstructSignatures(): readonly ts.Signature[] {
    return (this.constructSignatures ??= this.signaturesOf('Construct'));
  }

  private signaturesOf(kind: 'Call' | 'Construct'): readonly ts.Signature[] {
    if (
      !(this.flags & (Number(this.views.enums.TypeFlags.Object) | Number(this.views.enums.TypeFlags.Intersection) | Number(this.views.enums.TypeFlags.Union)))
    )
      return [];
    if (this.declaresNoSignatures()) return [];
    return this.views.project.checker
      .getSignaturesOfType(this.raw, Number(this.views.enums.SignatureKind[kind]))
      .map((signature) => this.views.signature(signature)!);
  }
  /**
   * Whether the type's declarations alone show it has no call or construct signatures (asked of the
   * compiler otherwise): an object type declared only by interfaces that extend nothing, type
   * literals or mapped types, none declaring a signature, has none — the answer for most types a
   * tool's parameters hold, without a question per type and kind.
   */
  private declaresNoSignatures(): boolean {
    if (!(this.flags & Number(this.views.enums.TypeFlags.Object)) || !this.raw.symbol) return false;
    const declarations = this.symbol?.declarations;
    if (!declarations?.length) return false;
    const { SyntaxKind } = this.views.enums;
    const signature = (member: { kind: number }) => member.kind === Number(SyntaxKind.CallSignature) || member.kind === Number(SyntaxKind.ConstructSignature);
    return declarations.every((declaration) => {
      const node = declaration as unknown as { kind: number; heritageClauses?: readonly unknown[]; members?: readonly { kind: number }[] };
      if (node.kind === Number(SyntaxKind.MappedType)) return true;
      if (node.kind === Number(SyntaxKind.InterfaceDeclaration)) return !node.heritageClauses?.length && !node.members?.some(signature);
      if (node.kind === Number(SyntaxKind.TypeLiteral)) return !node.members?.some(signature);
      return false;
    });
  }
}

class SymbolView {
  private declarationViews: ts.Declaration[] | undefined;

  constructor(
    readonly raw: Symbol7,
    private readonly views: Views7,
  ) {}

  get id(): number {
    return this.raw.id;
  }

  /** As TypeScript 6 names it: a private name `#x` by itself (TypeScript 7 gives its internal `__#1@#x`). */
  get name(): string {
    return this.raw.name.replace(/^__#\d+@(?=#)/, '');
  }

  get escapedName(): string {
    return this.raw.escapedName;
  }

  get flags(): number {
    return this.raw.flags;
  }

  get declarations(): ts.Declaration[] | undefined {
    if (!this.raw.declarations) return undefined;
    return (this.declarationViews ??= this.raw.declarations.flatMap((handle) => (this.views.node(handle) as ts.Declaration | undefined) ?? []));
  }

  get valueDeclaration(): ts.Declaration | undefined {
    const handle = this.raw.valueDeclaration;
    return handle ? (this.views.node(handle) as ts.Declaration | undefined) : undefined;
  }

  getName(): string {
    return this.name;
  }

  getFlags(): number {
    return this.flags;
  }

  getDeclarations(): ts.Declaration[] | undefined {
    return this.declarations;
  }
}

class SignatureView {
  constructor(
    readonly raw: Signature7,
    private readonly views: Views7,
  ) {}

  get declaration(): ts.Node | undefined {
    return this.raw.declaration ? this.views.node(this.raw.declaration) : undefined;
  }

  getParameters(): ts.Symbol[] {
    return this.raw.getParameters().map((symbol) => this.views.symbol(symbol));
  }

  getTypeParameters(): ts.Type[] | undefined {
    const parameters = this.raw.getTypeParameters();
    return parameters.length > 0 ? parameters.map((type) => this.views.type(type)) : undefined;
  }

  getReturnType(): ts.Type {
    return this.views.type(this.views.project.checker.getReturnTypeOfSignature(this.raw))!;
  }
}
