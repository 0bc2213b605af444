import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildWasmModules } from '../../../../../tools/wasm/build-modules.mjs';
import { exported, importedMemory, moduleBytes, type ModuleParts } from '../test-support/module-bytes.js';
import { testModule } from '../test-support/wasm-request.js';
import { ByteReader } from './byte-reader.js';
import { MemoryCapError } from './memory-cap-error.js';
import { MAX_TABLE_ENTRIES, prepareModule, RUNNER_EXPORTS } from './prepare-module.js';
import { SectionId, splitSections } from './module-sections.js';
import { WasmFormatError } from './wasm-format-error.js';

const I32 = 0x7f;
const LOOP_BODY = [0x03, 0x40, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b]; // loop: n -= 1, again while n != 0

/**
 * count(n): loops n times; grow(n): memory.grow n; begin(): the start function; vector(n): SIMD
 * instructions with immediates of every shape, then the same loop (a misread immediate would lose it).
 */
const sample = moduleBytes({
  types: [
    [0x60, 1, I32, 1, I32],
    [0x60, 0, 0],
  ],
  functions: [0, 0, 1, 0],
  tables: [[0x70, 0x00, 1]],
  memories: [[0x01, 1, 100]],
  globals: [[I32, 0x00, 0x41, 0x07, 0x0b]],
  exports: [exported('count', 0, 0), exported('grow', 0, 1), exported('vector', 0, 3), exported('memory', 2, 0)],
  start: 2,
  code: [
    [0, ...LOOP_BODY, 0x20, 0x00, 0x0b],
    [0, 0x20, 0x00, 0x40, 0x00, 0x0b],
    [0, 0x0b],
    // prettier-ignore
    [0,
      0xfd, 12, ...Array(16).fill(1), // v128.const
      0xfd, 12, ...Array(16).fill(2),
      0xfd, 13, ...Array.from({ length: 16 }, (_, i) => i), // i8x16.shuffle
      0xfd, 21, 3, 0x1a, // i8x16.extract_lane_s 3, drop
      0x41, 0x00, 0xfd, 0x00, 0x04, 0x00, 0x1a, // i32.const 0, v128.load align=4 offset=0, drop
      ...LOOP_BODY, 0x20, 0x00, 0x0b],
  ],
});

function instantiate(bytes: Uint8Array, imports: WebAssembly.Imports = {}): Record<string, any> {
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), imports).exports;
}

describe(prepareModule, () => {
  it('keeps a valid module valid, moving its start function to an export the runner calls', () => {
    const { bytes } = prepareModule(sample, 10);
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(splitSections(bytes).some((section) => section.id === SectionId.start)).toBe(false);
    const names = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((entry) => entry.name);
    expect(names).toEqual(['count', 'grow', 'vector', 'memory', RUNNER_EXPORTS.fuel, RUNNER_EXPORTS.grow, RUNNER_EXPORTS.start]);
  });

  it('charges one fuel per function entry and one per loop iteration, exactly', () => {
    const exports = instantiate(prepareModule(sample, 10).bytes);
    exports[RUNNER_EXPORTS.fuel].value = 1_000n;
    exports.count(10);
    expect(exports[RUNNER_EXPORTS.fuel].value).toBe(1_000n - 11n);
    exports[RUNNER_EXPORTS.start]();
    expect(exports[RUNNER_EXPORTS.fuel].value).toBe(1_000n - 12n);
  });

  it('still finds every loop after SIMD instructions with immediates', () => {
    const exports = instantiate(prepareModule(sample, 10).bytes);
    exports[RUNNER_EXPORTS.fuel].value = 100n;
    exports.vector(5);
    expect(exports[RUNNER_EXPORTS.fuel].value).toBe(100n - 6n);
  });

  it('traps once the fuel is spent, leaving it at -1', () => {
    const exports = instantiate(prepareModule(sample, 10).bytes);
    exports[RUNNER_EXPORTS.fuel].value = 5n;
    expect(() => exports.count(10)).toThrow(WebAssembly.RuntimeError);
    expect(exports[RUNNER_EXPORTS.fuel].value).toBe(-1n);
  });

  it('caps the memory maximum, so growing past the cap fails and is recorded', () => {
    const exports = instantiate(prepareModule(sample, 10).bytes);
    exports[RUNNER_EXPORTS.fuel].value = 100n;
    expect(exports.grow(5)).toBe(1);
    expect(exports[RUNNER_EXPORTS.grow].value).toBe(1);
    expect(exports.grow(5)).toBe(-1);
    expect(exports[RUNNER_EXPORTS.grow].value).toBe(-1);
    expect(exports.memory.buffer.byteLength).toBe(6 * 65536);
  });

  it('gives a memory without a maximum the cap, and a table without one the table cap', () => {
    const module = moduleBytes({ memories: [[0x00, 2]], tables: [[0x70, 0x00, 0]] });
    const sections = splitSections(prepareModule(module, 16).bytes);
    const limits = (id: number) => {
      const reader = new ByteReader(sections.find((section) => section.id === id)!.payload);
      reader.u32();
      if (id === SectionId.table) reader.u8();
      return [reader.u8(), reader.u32(), reader.u32()];
    };
    expect(limits(SectionId.memory)).toEqual([0x01, 2, 16]);
    expect(limits(SectionId.table)).toEqual([0x01, 0, MAX_TABLE_ENTRIES]);
  });

  it('caps an imported memory and says which one to create', () => {
    const module = moduleBytes({ imports: [importedMemory('env', 'memory', [0x01, 3, 0x80, 0x08])] });
    const prepared = prepareModule(module, 32);
    expect(prepared.importedMemories).toEqual([{ module: 'env', name: 'memory', initial: 3, maximum: 32, shared: false }]);
    const memory = new WebAssembly.Memory({ initial: 3, maximum: 32 });
    expect(() => instantiate(prepared.bytes, { env: { memory } })).not.toThrow();
    // The module's own limits now say 32 too: a host memory allowed to grow further would not link.
    expect(() => instantiate(prepared.bytes, { env: { memory: new WebAssembly.Memory({ initial: 3 }) } })).toThrow(WebAssembly.LinkError);
  });

  it('refuses a memory that starts above the cap', () => {
    expect(() => prepareModule(moduleBytes({ memories: [[0x00, 20]] }), 16)).toThrow(MemoryCapError);
    expect(() => prepareModule(moduleBytes({ imports: [importedMemory('env', 'memory', [0x00, 20])] }), 16)).toThrow(MemoryCapError);
  });

  it.for<[string, ModuleParts, RegExp]>([
    [
      'two defined memories',
      {
        memories: [
          [0x00, 1],
          [0x00, 1],
        ],
      },
      /2 memories \(0 imported, 2 defined\)/,
    ],
    [
      'an imported and a defined memory',
      { imports: [importedMemory('env', 'memory', [0x00, 1])], memories: [[0x00, 1]] },
      /2 memories \(1 imported, 1 defined\)/,
    ],
    [
      'two imported memories',
      { imports: [importedMemory('env', 'a', [0x00, 1]), importedMemory('env', 'b', [0x00, 1])] },
      /2 memories \(2 imported, 0 defined\)/,
    ],
  ])('refuses a module with more than one memory, whatever this V8 supports: %s', ([, parts, message]) => {
    expect(() => prepareModule(moduleBytes(parts), 16)).toThrow(WasmFormatError);
    expect(() => prepareModule(moduleBytes(parts), 16)).toThrow(message);
  });

  it('refuses a module exporting a name the runner reserves', () => {
    expect(() => prepareModule(moduleBytes({ globals: [[I32, 0x00, 0x41, 0x00, 0x0b]], exports: [exported(RUNNER_EXPORTS.fuel, 3, 0)] }), 16)).toThrow(
      WasmFormatError,
    );
  });

  it('refuses instructions it cannot step over rather than misread them', () => {
    const module = moduleBytes({ types: [[0x60, 0, 0]], functions: [0], code: [[0, 0xfb, 0x00, 0x00, 0x0b]] });
    expect(() => prepareModule(module, 16)).toThrow(/instruction 0xfb/);
  });

  describe('on a module built by AssemblyScript', () => {
    beforeAll(() => buildWasmModules(), 120_000);

    it('yields a module that validates, with the memory capped', () => {
      const prepared = prepareModule(fs.readFileSync(testModule('word-count')), 1024);
      expect(WebAssembly.validate(prepared.bytes)).toBe(true);
      const memory = splitSections(prepared.bytes).find((section) => section.id === SectionId.memory)!;
      const reader = new ByteReader(memory.payload);
      expect([reader.u32(), reader.u8(), reader.u32(), reader.u32()]).toEqual([1, 0x01, 1, 1024]);
    });
  });
});
