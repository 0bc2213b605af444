import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The part of TypeScript 7's API (a client of the native compiler: `typescript/unstable/sync` in 7.0,
// `typescript/sync` in 7.1) that the TS 7 front end uses, written out here: the `typescript` this
// package compiles against is 6, whose types describe another compiler. The API is unstable between
// minors, so every difference between them is met in `loadTypeScript7` and nowhere else.

/** A node of TypeScript 7's syntax tree (the same shape as TypeScript 6's, numbered its own way). */
export interface Node7 {
  readonly kind: number;
  readonly flags: number;
  readonly pos: number;
  readonly end: number;
  readonly parent: Node7;
  readonly jsDoc?: readonly Node7[];
  forEachChild<T>(visitor: (node: Node7) => T): T | undefined;
  getSourceFile(): SourceFile7;
  getStart(sourceFile?: SourceFile7): number;
  [member: string]: unknown;
}

export interface SourceFile7 extends Node7 {
  readonly text: string;
  readonly fileName: string;
  readonly statements: readonly Node7[];
  readonly isDeclarationFile: boolean;
  readonly externalModuleIndicator: unknown;
}

/** Where a declaration lies, resolved to its node on demand. */
export interface NodeHandle7 {
  readonly path: string;
  readonly kind: number;
  readonly index: number;
  resolve(project?: Project7): Node7 | undefined;
}

export interface Symbol7 {
  readonly id: number;
  readonly name: string;
  readonly escapedName: string;
  readonly flags: number;
  readonly declarations: readonly NodeHandle7[] | undefined;
  readonly valueDeclaration: NodeHandle7 | undefined;
  getParent(): Symbol7 | undefined;
}

export interface Type7 {
  readonly id: number;
  readonly flags: number;
  readonly objectFlags: number;
  readonly value: string | number | boolean | bigint;
  readonly intrinsicName: string;
  readonly elementFlags: readonly number[];
  readonly fixedLength: number;
  readonly readonly: boolean;
  readonly texts: readonly string[];
  readonly target: number;
  readonly aliasTypeArguments: readonly number[];
  readonly aliasSymbol: number;
  readonly symbol: number;
  getSymbol(): Symbol7 | undefined;
  getAliasSymbol(): Symbol7 | undefined;
  getAliasTypeArguments(): readonly Type7[];
  getTarget(): Type7;
  getTypes(): readonly Type7[] | undefined;
}

export interface Signature7 {
  readonly id: number;
  readonly declaration?: NodeHandle7 | undefined;
  readonly typeParameters?: readonly number[] | undefined;
  getParameters(): readonly Symbol7[];
  getTypeParameters(): readonly Type7[];
}

export interface IndexInfo7 {
  readonly keyType: Type7;
  readonly valueType: Type7;
  readonly isReadonly: boolean;
}

export interface Checker7 {
  getSymbolAtLocation(node: Node7): Symbol7 | undefined;
  getSymbolAtLocation(nodes: readonly Node7[]): (Symbol7 | undefined)[];
  getTypeOfSymbol(symbol: Symbol7): Type7 | undefined;
  getTypeOfSymbol(symbols: readonly Symbol7[]): (Type7 | undefined)[];
  getTypeAtLocation(node: Node7): Type7 | undefined;
  getTypeAtLocation(nodes: readonly Node7[]): (Type7 | undefined)[];
  getSignaturesOfType(type: Type7, kind: number): readonly Signature7[];
  getNonNullableType(type: Type7): Type7 | undefined;
  getTypeFromTypeNode(node: Node7): Type7 | undefined;
  typeToString(type: Type7, enclosingDeclaration?: Node7, flags?: number): string;
  isArrayType(type: Type7): boolean;
  isTupleType(type: Type7): boolean;
  getReturnTypeOfSignature(signature: Signature7): Type7 | undefined;
  getBaseTypes(type: Type7): readonly Type7[];
  getPropertiesOfType(type: Type7): readonly Symbol7[];
  getIndexInfosOfType(type: Type7): readonly IndexInfo7[];
  getPropertyOfType(type: Type7, name: string): Symbol7 | undefined;
  getSignatureFromDeclaration(node: Node7): Signature7 | undefined;
  getAliasedSymbol(symbol: Symbol7): Symbol7;
  getExportsOfModule(symbol: Symbol7): readonly Symbol7[];
  getTypeArguments(type: Type7): readonly Type7[];
  getBooleanType(): Type7;
}

/** A compiler diagnostic (a syntax or tsconfig error) as TypeScript 7's API gives it. */
export interface Diagnostic7 {
  readonly fileName?: string | undefined;
  readonly pos: number;
  readonly end: number;
  readonly code: number;
  /** 0 warning, 1 error, 2 suggestion, 3 message. */
  readonly category: number;
  readonly text: string;
}

export interface Program7 {
  getSyntacticDiagnostics(): readonly Diagnostic7[];
  getConfigFileParsingDiagnostics(): readonly Diagnostic7[];
  getSourceFile(fileName: string): SourceFile7 | undefined;
  getSourceFileNames(): readonly string[];
  isSourceFileFromExternalLibrary(file: SourceFile7): boolean;
  isSourceFileDefaultLibrary(file: SourceFile7): boolean;
  getSourceFileMetadata(fileName: string): { isDefaultLibrary: boolean; isFromExternalLibrary: boolean } | undefined;
  getCompilerOptions(): Record<string, unknown>;
}

export interface Project7 {
  readonly configFileName: string;
  readonly compilerOptions: Record<string, unknown>;
  readonly program: Program7;
  readonly checker: Checker7;
  /**
   * Asks many questions in one round trip to the compiler (7.1's `batch()`), the answers in their
   * order; absent where the API has no batches (7.0), whose questions go one at a time.
   */
  readonly askAll?: AskAll7;
}

/** A question for `Project7.askAll`: one checker or program question about one object. */
export type Question7 =
  | { readonly ask: 'symbol'; readonly type: Type7 }
  | { readonly ask: 'properties'; readonly type: Type7 }
  | { readonly ask: 'property'; readonly type: Type7; readonly name: string }
  | { readonly ask: 'typesOfSymbols'; readonly symbols: readonly Symbol7[] }
  | { readonly ask: 'indexInfos'; readonly type: Type7 }
  | { readonly ask: 'signatures'; readonly type: Type7; readonly kind: number }
  | { readonly ask: 'typeArguments'; readonly type: Type7 }
  | { readonly ask: 'types'; readonly type: Type7 }
  | { readonly ask: 'target'; readonly type: Type7 }
  | { readonly ask: 'isArray'; readonly type: Type7 }
  | { readonly ask: 'isTuple'; readonly type: Type7 }
  | { readonly ask: 'sourceFile'; readonly fileName: string }
  | { readonly ask: 'metadata'; readonly fileName: string };

/** What each kind of question answers. */
export interface Answers7 {
  symbol: Symbol7 | undefined;
  properties: readonly Symbol7[];
  property: Symbol7 | undefined;
  typesOfSymbols: readonly (Type7 | undefined)[];
  indexInfos: readonly IndexInfo7[];
  signatures: readonly Signature7[];
  typeArguments: readonly Type7[];
  types: readonly Type7[] | undefined;
  target: Type7;
  isArray: boolean;
  isTuple: boolean;
  sourceFile: SourceFile7 | undefined;
  metadata: { isDefaultLibrary: boolean; isFromExternalLibrary: boolean } | undefined;
}

export type AskAll7 = <Q extends Question7>(questions: readonly Q[]) => Answers7[Q['ask']][];

type Enum = Readonly<Record<string, number | string>>;

/** TypeScript 7's numbering of what the analysis reads by name (each compiler numbers them its own way). */
export interface Enums7 {
  SyntaxKind: Enum;
  TypeFlags: Enum;
  ObjectFlags: Enum;
  SymbolFlags: Enum;
  ModifierFlags: Enum;
  ElementFlags: Enum;
  SignatureKind: Enum;
}

/** One TypeScript 7 installation, loaded: its version, its numbering, its node tests and a way to open a project. */
export interface TypeScript7 {
  version: string;
  /** The minor line whose API shape this is (`7.0`, `7.1`): the adapter was written for it. */
  line: '7.0' | '7.1';
  enums: Enums7;
  /** The node tests of its `ast` module by name (`isIdentifier`, …). */
  is: Readonly<Record<string, (node: Node7) => boolean>>;
  getLeadingCommentRanges(text: string, pos: number): { pos: number; end: number; kind: number }[] | undefined;
  getTrailingCommentRanges(text: string, pos: number): { pos: number; end: number; kind: number }[] | undefined;
  getTextOfJSDocComment(comment: unknown): string | undefined;
  /** Starts the native compiler on `tsconfig` (its own process) and opens that project; closing it ends the process. */
  openProject(tsconfig: string): OpenProject7;
  /** Starts the native compiler (its own process, working in `cwd`) to open projects one after another. */
  startCompiler(cwd: string): Compiler7;
}

/** A running native compiler, opening projects one after another (what they share is read once). */
export interface Compiler7 {
  /** Opens the project of `tsconfig`; its `close()` releases the project and leaves the compiler running. */
  openProject(tsconfig: string): OpenProject7;
  /** Ends the compiler's process. */
  close(): void;
}

export interface OpenProject7 {
  project: Project7;
  /**
   * Opens the project again after files changed on disk (watch mode): those named are read again
   * (every file when none are named); `project` is the new one, and the old one's objects stop answering.
   */
  refresh(changed?: { changed?: string[]; created?: string[]; deleted?: string[] }): Project7;
  close(): void;
}

/** The TypeScript 7 minors this front end has an adapter for, by exact tested version. */
export const SUPPORTED_TYPESCRIPT_7 = { '7.0': '7.0.2', '7.1': '7.1.0-beta' } as const;

/**
 * Loads the TypeScript 7 installed at `packageDir` (a `typescript` package folder). Refuses a
 * version whose API line has no adapter here, naming the lines there are.
 */
export async function loadTypeScript7(packageDir: string): Promise<TypeScript7> {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string; exports?: Record<string, unknown> };
  const version = manifest.version;
  const line = /^7\.(\d+)\./.exec(version)?.[1];
  if (line === undefined) throw new Error(`${packageDir} holds TypeScript ${version}, not 7`);
  // The entry points by their names in the package's exports: 7.0 has them under `unstable/`.
  const entries = manifest.exports ?? {};
  const prefix = './unstable/sync' in entries ? './unstable/' : './sync' in entries ? './' : undefined;
  if (prefix === undefined || (line !== '0' && line !== '1'))
    throw new Error(
      `TypeScript ${version} has an API this version of Toolwright does not know (it reads ${Object.values(SUPPORTED_TYPESCRIPT_7).join(' and ')}); install one of those, or a Toolwright that supports ${version}.`,
    );
  const require = createRequire(path.join(packageDir, 'package.json'));
  const load = async (entry: string) =>
    (await import(pathToFileURL(require.resolve(`typescript/${prefix.slice(2)}${entry}`, { paths: [path.dirname(packageDir)] })).href)) as Record<
      string,
      unknown
    >;
  const [api, ast] = await Promise.all([load('sync'), load('ast')]);
  const API = api.API;
  const enums: Enums7 = {
    SyntaxKind: ast.SyntaxKind as Enum,
    TypeFlags: api.TypeFlags as Enum,
    ObjectFlags: api.ObjectFlags as Enum,
    SymbolFlags: api.SymbolFlags as Enum,
    ModifierFlags: (api.ModifierFlags ?? ast.ModifierFlags) as Enum,
    ElementFlags: api.ElementFlags as Enum,
    SignatureKind: api.SignatureKind as Enum,
  };
  return {
    version,
    line: line === '0' ? '7.0' : '7.1',
    enums,
    is: ast as Record<string, (node: Node7) => boolean>,
    getLeadingCommentRanges: ast.getLeadingCommentRanges as TypeScript7['getLeadingCommentRanges'],
    getTrailingCommentRanges: ast.getTrailingCommentRanges as TypeScript7['getTrailingCommentRanges'],
    getTextOfJSDocComment: (ast.getTextOfJSDocComment ?? textOfJSDocComment) as TypeScript7['getTextOfJSDocComment'],
    startCompiler: (cwd) => (line === '0' ? compiler70 : compiler71)(API as never, cwd, version),
    openProject: (tsconfig) => projectOnItsOwn((line === '0' ? compiler70 : compiler71)(API as never, path.dirname(tsconfig), version), tsconfig),
  };
}

/** The changes `refresh` passes on (7.0's `fileChanges`, 7.1's `fileNotifications`). */
type FileChanges7 = { changed?: string[]; created?: string[]; deleted?: string[] } | { invalidateAll: true };

/** How one minor line opens a project on a running compiler: `open` again after changes; `release` when done. */
interface ProjectOpener {
  open(fileChanges?: FileChanges7): Project7;
  release(): void;
}

/**
 * One native compiler process opening projects one after another: what is read once (the default library,
 * `@types` packages) is kept between them. A project's `close()` releases that project; `close()` here ends the
 * process.
 */
function startCompiler(client: { close(): void }, opener: (tsconfig: string) => ProjectOpener): Compiler7 {
  endSilently(client);
  return {
    openProject: (tsconfig) => {
      const project = opener(tsconfig);
      try {
        const result: OpenProject7 = {
          project: project.open(),
          refresh: (changes) => (result.project = project.open(changes ?? { invalidateAll: true })),
          close: () => project.release(),
        };
        return result;
      } catch (error) {
        project.release();
        throw error;
      }
    },
    close: () => client.close(),
  };
}

/** A compiler of its own for one project: closing the project ends it. */
function projectOnItsOwn(compiler: Compiler7, tsconfig: string): OpenProject7 {
  try {
    const open = compiler.openProject(tsconfig);
    return {
      get project() {
        return open.project;
      },
      refresh: (changes) => open.refresh(changes),
      close: () => compiler.close(),
    };
  } catch (error) {
    compiler.close();
    throw error;
  }
}

/** 7.0: `updateSnapshot` opens the project, and again after changes; `closeProjects` releases it. */
function compiler70(API: new (options: { cwd: string }) => Api70, cwd: string, version: string): Compiler7 {
  const client = new API({ cwd });
  return startCompiler(client, (tsconfig) => ({
    open: (fileChanges) => {
      const snapshot = client.updateSnapshot({ openProjects: [tsconfig], ...(fileChanges ? { fileChanges } : {}) });
      const project = snapshot.getProject(tsconfig) ?? snapshot.getProjects()[0];
      if (!project) throw new Error(`TypeScript ${version} opened no project for ${tsconfig}`);
      return project;
    },
    release: () => {
      client.updateSnapshot({ closeProjects: [tsconfig] });
    },
  }));
}

/**
 * 7.1: `createSnapshot` opens the project (`getConfiguredProject`), the last snapshot's `update` makes the next
 * after changes (`fileNotifications`); its options are under `parsedCommandLine`. Its `batch()` runs request
 * generators (each method's `.gen`) together, a round trip per step they take: `askAll`.
 */
function compiler71(API: new (options: { cwd: string }) => Api71, cwd: string, version: string): Compiler7 {
  const client = new API({ cwd });
  return startCompiler(client, (tsconfig) => {
    let snapshot: Snapshot71 | undefined;
    return {
      open: (fileNotifications) => {
        // After changes, the next snapshot is made from the last (`update`): the client keeps the source files that did not
        // change, the same objects, so the analysis sees which files it can reuse.
        const next =
          snapshot && fileNotifications
            ? snapshot.update({ openProjects: [tsconfig], fileNotifications })
            : client.createSnapshot({ openProjects: [tsconfig], ...(fileNotifications ? { fileNotifications } : {}) });
        const project = next.getConfiguredProject(tsconfig) ?? next.getProjects()[0];
        if (!project) throw new Error(`TypeScript ${version} opened no project for ${tsconfig}`);
        if (snapshot !== next) snapshot?.dispose(); // an update that changed nothing answers with the same snapshot
        snapshot = next;
        if (!('compilerOptions' in project))
          Object.defineProperty(project, 'compilerOptions', {
            value: (project as { parsedCommandLine?: { options?: unknown } }).parsedCommandLine?.options ?? {},
          });
        const askAll: AskAll7 = (questions) =>
          questions.length === 0 ? [] : (client.batch(...questions.map((question) => generatorFor(project as Project7, question))) as never[]);
        Object.defineProperty(project, 'askAll', { value: askAll });
        return project as Project7;
      },
      release: () => {
        snapshot?.dispose();
        snapshot = undefined;
        client.createSnapshot({ closeProjects: [tsconfig] }).dispose();
      },
    };
  });
}

/**
 * The API's channel ends the native compiler by closing its pipes and then sending SIGTERM (on `close()`, and for
 * any left open when this process exits); the compiler, sharing this process's stderr, now and then prints "context
 * canceled" there as it winds down (1 run in 200 of `toolwright emit` under load): a stray line in the CLI's output.
 * The compiler holds nothing to save (the API only reads), so it is ended first, with SIGKILL, which it cannot answer,
 * and then the channel lets go of its pipes. Where the channel is not where 7.0 and 7.1 keep it, nothing changes.
 */
export function endSilently(client: unknown): void {
  type Child = { kill: (signal?: NodeJS.Signals) => boolean };
  const channel = (client as { client?: { channel?: { child?: Partial<Child>; close?: unknown } } } | undefined)?.client?.channel;
  const child = channel?.child;
  if (!channel || !child || typeof child.kill !== 'function' || typeof channel.close !== 'function') return;
  const kill = child.kill.bind(child);
  const close = (channel.close as () => void).bind(channel);
  child.kill = () => kill('SIGKILL');
  channel.close = () => {
    try {
      kill('SIGKILL');
    } catch {
      // it has already ended
    }
    close();
  };
}

interface Api70 {
  updateSnapshot(params: { openProjects?: string[]; closeProjects?: string[]; fileChanges?: FileChanges7 }): {
    getProject(config: string): Project7 | undefined;
    getProjects(): readonly Project7[];
  };
  close(): void;
}

interface Snapshot71 {
  update(params: { openProjects: string[]; fileNotifications: FileChanges7 }): Snapshot71;
  getConfiguredProject(config: string): Omit<Project7, 'compilerOptions'> | undefined;
  getProjects(): readonly Omit<Project7, 'compilerOptions'>[];
  dispose(): void;
}

interface Api71 {
  createSnapshot(params: { openProjects?: string[]; closeProjects?: string[]; fileNotifications?: FileChanges7 }): Snapshot71;
  batch(...generators: Generator71[]): unknown[];
  close(): void;
}

type Generator71 = Generator<unknown, unknown, unknown>;
/** 7.1's methods with their request generator (`method.gen(...)`), by the name the question uses. */
type Gen71 = { gen(...args: unknown[]): Generator71 };
type Methods71 = Record<string, Gen71>;

/** One question as 7.1's request generator. */
function generatorFor(project: Project7, question: Question7): Generator71 {
  const checker = project.checker as unknown as Methods71;
  const program = project.program as unknown as Methods71;
  const type = (object: Type7) => object as unknown as Methods71;
  switch (question.ask) {
    case 'symbol':
      return type(question.type).getSymbol!.gen();
    case 'properties':
      return checker.getPropertiesOfType!.gen(question.type);
    case 'property':
      return checker.getPropertyOfType!.gen(question.type, question.name);
    case 'typesOfSymbols':
      return checker.getTypeOfSymbol!.gen(question.symbols);
    case 'indexInfos':
      return checker.getIndexInfosOfType!.gen(question.type);
    case 'signatures':
      return checker.getSignaturesOfType!.gen(question.type, question.kind);
    case 'typeArguments':
      return checker.getTypeArguments!.gen(question.type);
    case 'types':
      return type(question.type).getTypes!.gen();
    case 'target':
      return type(question.type).getTarget!.gen();
    case 'isArray':
      return checker.isArrayType!.gen(question.type);
    case 'isTuple':
      return checker.isTupleType!.gen(question.type);
    case 'sourceFile':
      return program.getSourceFile!.gen(question.fileName);
    case 'metadata':
      return program.getSourceFileMetadata!.gen(question.fileName);
  }
}

/** A JSDoc comment's text: a string, or the parts of one (`NodeArray` of text and links). */
function textOfJSDocComment(comment: unknown): string | undefined {
  if (typeof comment === 'string') return comment;
  if (!Array.isArray(comment)) return undefined;
  return (comment as { text?: string }[]).map((part) => part.text ?? '').join('');
}
