// The part of Node's WebAssembly global the tests use. TypeScript declares it only in its DOM library, which the
// repository does not load, and @types/node (20 and 22) not at all; the sources reach it through
// wasm/webassembly-api.ts instead. Shapes as in TypeScript's lib.dom.d.ts.

declare namespace WebAssembly {
  type BufferSource = ArrayBufferView | ArrayBuffer;
  type ImportExportKind = 'function' | 'global' | 'memory' | 'table' | 'tag';
  type Imports = Record<string, Record<string, unknown>>;
  type Exports = Record<string, unknown>;

  /** A compiled module. */
  interface Module {
    readonly [Symbol.toStringTag]: string;
  }
  interface ModuleExportDescriptor {
    kind: ImportExportKind;
    name: string;
  }
  interface ModuleImportDescriptor {
    kind: ImportExportKind;
    module: string;
    name: string;
  }
  const Module: {
    prototype: Module;
    new (bytes: BufferSource): Module;
    exports(module: Module): ModuleExportDescriptor[];
    imports(module: Module): ModuleImportDescriptor[];
  };

  interface Instance {
    readonly exports: Exports;
  }
  const Instance: {
    prototype: Instance;
    new (module: Module, imports?: Imports): Instance;
  };

  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
    shared?: boolean;
  }
  interface Memory {
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  const Memory: {
    prototype: Memory;
    new (descriptor: MemoryDescriptor): Memory;
  };

  /** The errors a module's compilation, linking and running throw. */
  const CompileError: ErrorConstructor;
  const LinkError: ErrorConstructor;
  const RuntimeError: ErrorConstructor;

  function validate(bytes: BufferSource): boolean;
}
