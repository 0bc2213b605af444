import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { attachToolDeclaration, getToolDeclaration, TOOL_OPTIONS, type ToolDeclaration, type ToolOptions, type ToolSourceKind } from '@toolwright/schema';
import { getToolContext, type CheckedTool } from '@toolwright/tool';
import { SOURCE_OPTION_KEYS } from '@toolwright/schema';
import { SourceError } from './source-error.js';
import type { HttpToolOptions, SubprocessToolOptions, WasmToolOptions } from './source-options.js';
import type { SourceRunner } from './source-request.js';
import { runWasm } from './wasm/run-wasm.js';
import { runSubprocess } from './subprocess/run-subprocess.js';
import { runHttp } from './http/run-http.js';

/** A tool's signature as a source form takes it: a function type whose result is a Promise. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parameters are the tool's, whatever they are
type Signature = (...args: any[]) => Promise<unknown>;

/** The well-known symbol under which a source tool carries where it runs (shared by every copy of the package). */
export const SOURCE_TOOL = Symbol.for('toolwright.source');

/** What a source tool function carries under `SOURCE_TOOL`. */
export interface SourceTool {
  kind: ToolSourceKind;
  /** The directory relative paths resolve against: the declaring source file's (set by the transformer or the loader). */
  base: string | undefined;
}

/**
 * Tools whose implementation runs elsewhere, declared from a TypeScript signature and JSDoc like any tool: the
 * type argument is the tool's signature, from which the transformer emits its declaration; the call names the
 * implementation.
 * @example
 * /** Resizes an image in the workspace. *\/
 * export const resize = source.wasm<(path: string, width: Integer) => Promise<Resized>>('./plugins/resize.wasm', { tier: 'read-only' });
 */
export interface Sources {
  /**
   * A WebAssembly module (its `call` export by default) run off the main thread with a memory cap and a compute
   * budget. A relative path is relative to the file that declares the tool; a `file:` URL is used as given.
   */
  wasm<F extends Signature>(module: string | URL, options?: WasmToolOptions): CheckedTool<F>;
  /**
   * An executable that reads the arguments as a JSON object on stdin and writes the result as JSON on stdout, run
   * with resource limits inside the kernel sandbox where there is one. `command` is the program and its arguments;
   * a program spelled with a slash (`./tool.py`) is relative to the file that declares the tool.
   */
  subprocess<F extends Signature>(command: string | readonly string[], options?: SubprocessToolOptions): CheckedTool<F>;
  /** An HTTP endpoint that takes the arguments as a JSON body (POST) and answers the result as JSON. */
  http<F extends Signature>(url: string | URL, options?: HttpToolOptions): CheckedTool<F>;
}

/**
 * The arguments the transformer adds after the author's two: the declaration, and the declaring file's directory,
 * relative to `anchor` (the output file's `import.meta.url` or `__filename`) when given, else absolute.
 */
type Compiled = [declaration?: ToolDeclaration, base?: unknown, anchor?: unknown];

export const source: Sources = {
  wasm(module: string | URL, options?: WasmToolOptions, ...[declaration, base, anchor]: Compiled): never {
    return sourceTool('wasm', options, declaration, baseOf(base, anchor), (tool, call) =>
      runWasm({ ...call, target: resolveFile(module, tool.base, 'module'), options: options ?? {} }),
    );
  },
  subprocess(command: string | readonly string[], options?: SubprocessToolOptions, ...[declaration, base, anchor]: Compiled): never {
    return sourceTool('subprocess', options, declaration, baseOf(base, anchor), (tool, call) =>
      runSubprocess({ ...call, target: resolveCommand(command, tool.base, options?.cwd), options: options ?? {} }),
    );
  },
  http(url: string | URL, options?: HttpToolOptions, ...[declaration]: Compiled): never {
    return sourceTool('http', options, declaration, undefined, (_tool, call) => runHttp({ ...call, target: String(url), options: options ?? {} }));
  },
};

/**
 * The declaring directory: `base` resolved against the directory of `anchor` (a `file:` URL or a path) when there
 * is one, so a moved or copied output still finds its files; `base` itself when it is absolute (the older form).
 */
export function baseOf(base: unknown, anchor: unknown): string | undefined {
  if (typeof base !== 'string') return undefined;
  if (typeof anchor !== 'string') return path.isAbsolute(base) ? base : undefined;
  if (anchor.startsWith('file:')) return path.resolve(path.dirname(fileURLToPath(anchor)), base);
  return path.isAbsolute(anchor) ? path.resolve(path.dirname(anchor), base) : undefined;
}

type Call = Omit<Parameters<SourceRunner<unknown, unknown>>[0], 'target' | 'options'>;

function sourceTool(
  kind: ToolSourceKind,
  options: ToolOptions | undefined,
  declaration: ToolDeclaration | undefined,
  base: string | undefined,
  run: (tool: SourceTool, call: Call) => Promise<unknown>,
): never {
  const record: SourceTool = { kind, base };
  const fn = async (...args: unknown[]): Promise<unknown> => {
    const declared = getToolDeclaration(fn);
    if (!declared)
      throw new SourceError(
        'not_declared',
        `this ${kind} tool has no declaration: compile the file that declares it with the Toolwright transformer (tspc), or load it with toolwright list/call/serve -p`,
      );
    const context = getToolContext();
    const signal = context?.signal ?? AbortSignal.timeout(declared.metadata.timeoutMs);
    if (signal.aborted) throw new SourceError('cancelled', 'the call was cancelled before it started');
    return run(record, { tool: declared.name, declaration: declared, input: argumentsObject(declared, args), signal, context });
  };
  Object.defineProperty(fn, SOURCE_TOOL, { value: record, enumerable: false });
  Object.defineProperty(fn, TOOL_OPTIONS, { value: toolOptions(kind, options), enumerable: false, configurable: true });
  if (declaration) attachToolDeclaration(fn, declaration);
  return fn as never;
}

/** The tool's own options, without the source's (those stay with the runner). */
function toolOptions(kind: ToolSourceKind, options: ToolOptions | undefined): ToolOptions {
  const sourceKeys: readonly string[] = SOURCE_OPTION_KEYS[kind];
  return Object.fromEntries(Object.entries(options ?? {}).filter(([key]) => !sourceKeys.includes(key)));
}

/** The call's arguments as the JSON object the implementation receives, keyed by the declared names. */
function argumentsObject(declaration: ToolDeclaration, args: unknown[]): Record<string, unknown> {
  if (declaration.argumentPassing === 'object') {
    const [only] = args;
    return typeof only === 'object' && only !== null ? { ...(only as Record<string, unknown>) } : {};
  }
  const input: Record<string, unknown> = {};
  declaration.parameterOrder.forEach((name, index) => {
    if (args[index] !== undefined) input[name] = args[index];
  });
  return input;
}

/** Sets the directory relative paths of a source tool resolve against (a loader that knows the declaring file). */
export function setSourceBase(fn: unknown, base: string): void {
  const record = typeof fn === 'function' ? (fn as unknown as Record<symbol, SourceTool | undefined>)[SOURCE_TOOL] : undefined;
  if (record && record.base === undefined) record.base = base;
}

function resolveFile(file: string | URL, base: string | undefined, what: string): string {
  if (file instanceof URL) {
    if (file.protocol !== 'file:') throw new SourceError('invalid_config', `the ${what} must be a file, not ${file.href}`);
    return fileURLToPath(file);
  }
  if (path.isAbsolute(file)) return file;
  if (base === undefined)
    throw new SourceError(
      'invalid_config',
      `the ${what} '${file}' is relative, and the tool's declaring file is unknown (it was not compiled with the Toolwright transformer): pass an absolute path or new URL('${file}', import.meta.url)`,
    );
  return path.resolve(base, file);
}

/** The program's argv and working directory: a program spelled with a slash, and the `cwd`, are relative to the declaring file. */
function resolveCommand(command: string | readonly string[], base: string | undefined, cwd: string | undefined): { argv: string[]; cwd: string } {
  const argv = typeof command === 'string' ? [command] : [...command];
  const [program] = argv;
  if (program === undefined || program === '') throw new SourceError('invalid_config', 'the subprocess command is empty: name the program to run');
  if (program.includes('/')) argv[0] = resolveFile(program, base, 'program');
  const directory = cwd !== undefined ? resolveFile(cwd, base, 'working directory') : (base ?? process.cwd());
  return { argv, cwd: directory };
}
