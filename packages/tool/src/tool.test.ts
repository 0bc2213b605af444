import 'reflect-metadata';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '@toolwright/schema';
import * as toolPackage from './index.js';
import { getToolDeclaration, isMarkedTool, tool, TOOL_METADATA_KEY } from './index.js';

// What the transformer passes as the decorator's second argument (its own output is tested in e2e/).
const DECLARATION: ToolDeclaration = {
  name: 'greet',
  description: 'Greets someone.',
  parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
  parameterOrder: ['name'],
  metadata: { tier: 'read-only' },
} as unknown as ToolDeclaration;

type Classes = Record<string, new (...args: unknown[]) => Record<string, unknown>>;

/** Compiles `source` with TypeScript's own decorator lowering (standard or legacy) and evaluates it. */
function compile(source: string, experimentalDecorators: boolean): Classes {
  const { outputText, diagnostics } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, experimentalDecorators },
    reportDiagnostics: true,
  });
  expect(diagnostics ?? []).toEqual([]);
  const exports: Classes = {};
  const load = (name: string) => {
    if (name !== '@toolwright/tool') throw new Error(`unexpected import ${name}`);
    return toolPackage;
  };
  new Function('require', 'exports', 'DECLARATION', outputText)(load, exports, DECLARATION);
  return exports;
}

const KIT = `
import { tool } from '@toolwright/tool';
export class Kit {
  @tool({ tier: 'read-only' }, DECLARATION) async greet(name) { return 'hi ' + name; }
  @tool() async undeclared(name) { return name; }
  async plain() { return 1; }
  @tool({}, DECLARATION) static async make(name) { return name; }
}
export class Sub extends Kit {}
`;

const metadataOf = (target: object, key: string) => Reflect.getOwnMetadata(TOOL_METADATA_KEY, target, key);

/** Runs `body` with the metadata API removed from `Reflect`, as when `reflect-metadata` is not loaded. */
function withoutMetadataApi<T>(body: () => T): T {
  const saved = Reflect.defineMetadata;
  delete (Reflect as Partial<typeof Reflect>).defineMetadata;
  try {
    return body();
  } finally {
    Reflect.defineMetadata = saved;
  }
}

describe(tool, () => {
  describe('under experimentalDecorators (NestJS and other metadata-driven frameworks)', () => {
    it('marks the method, attaches its declaration and defines it as metadata on the prototype at class definition', () => {
      const { Kit } = compile(KIT, true);
      const greet = Kit!.prototype.greet;
      expect(isMarkedTool(greet)).toBe(true);
      expect(getToolDeclaration(greet)).toBe(DECLARATION);
      expect(metadataOf(Kit!.prototype, 'greet')).toBe(DECLARATION);
      expect(metadataOf(Kit!, 'make')).toBe(DECLARATION);
    });

    it('defines no metadata for a method without a declaration or without @tool()', () => {
      const { Kit } = compile(KIT, true);
      expect(isMarkedTool(Kit!.prototype.undeclared)).toBe(true);
      expect(Reflect.getMetadata(TOOL_METADATA_KEY, Kit!.prototype, 'undeclared')).toBeUndefined();
      expect(Reflect.getMetadata(TOOL_METADATA_KEY, Kit!.prototype, 'plain')).toBeUndefined();
    });

    it.for([
      ['field', 'export class A { @tool() name = 1; }'],
      ['accessor', 'export class A { @tool() get name() { return 1; } }'],
    ])('refuses a non-method (%s)', ([kind, source]) => {
      expect(() => compile(`import { tool } from '@toolwright/tool';\n${source}`, true)).toThrow(`@tool() decorates class methods only; 'name' is a ${kind}.`);
    });
  });

  describe('as a standard (TC39) decorator', () => {
    it('defines the metadata on the owning prototype once an instance exists (the decorator does not see its class)', () => {
      const { Kit, Sub } = compile(KIT, false);
      expect(getToolDeclaration(Kit!.prototype.greet)).toBe(DECLARATION);
      expect(metadataOf(Kit!.prototype, 'greet')).toBeUndefined();
      new Sub!();
      expect(metadataOf(Kit!.prototype, 'greet')).toBe(DECLARATION);
      expect(metadataOf(Sub!.prototype, 'greet')).toBeUndefined();
      expect(Reflect.getMetadata(TOOL_METADATA_KEY, Sub!.prototype, 'greet')).toBe(DECLARATION);
      expect(metadataOf(Kit!, 'make')).toBe(DECLARATION);
      expect(Reflect.getMetadata(TOOL_METADATA_KEY, Kit!.prototype, 'undeclared')).toBeUndefined();
    });

    it('refuses a field', () => {
      expect(() => compile(`import { tool } from '@toolwright/tool';\nexport class A { @tool() name = 1; }`, false)).toThrow(
        `@tool() decorates class methods only; 'name' is a field.`,
      );
    });
  });

  it.for([true, false])('without a metadata API loaded, still marks the method and defines nothing (experimentalDecorators: %s)', (legacy) => {
    const { Kit } = withoutMetadataApi(() => {
      const classes = compile(KIT, legacy);
      new classes.Kit!();
      return classes;
    });
    expect(getToolDeclaration(Kit!.prototype.greet)).toBe(DECLARATION);
    new Kit!();
    expect(metadataOf(Kit!.prototype, 'greet')).toBeUndefined();
    expect(metadataOf(Kit!, 'make')).toBeUndefined();
  });
});
