import path from 'node:path';
import type { ToolDeclaration } from '@toolwright/schema';
import { GENERATED_MODULE_HEADER } from '@toolwright/transformer';

export interface ModuleEntry {
  declaration: ToolDeclaration;
  /** Absolute path of the source file that defines the tool. */
  fileName: string;
  /** `readFile`, `default`, or `Toolkit.prototype.readFile`. */
  exportName: string;
}

/**
 * A module that attaches every declaration to its function, for builds that never run TypeScript
 * transformers (esbuild, Vite, tsx, Bun, TypeScript 7): import it once, before registering tools.
 * @example toolwright emit --module src/tools.gen.ts
 */
export function renderModule(entries: readonly ModuleEntry[], moduleFile: string, options: { importExtension?: string } = {}): string {
  const extension = options.importExtension ?? '.js';
  const sorted = [...entries].sort((a, b) => (a.declaration.name < b.declaration.name ? -1 : 1));
  const imports = new Map<string, Map<string, string>>(); // specifier -> exported binding -> local name
  const lines: string[] = [];
  const localFor = (fileName: string, binding: string): string => {
    const specifier = importSpecifier(path.dirname(moduleFile), fileName, extension);
    const bindings = imports.get(specifier) ?? new Map<string, string>();
    imports.set(specifier, bindings);
    let local = bindings.get(binding);
    if (!local) {
      local = `${binding === 'default' ? 'defaultExport' : binding}_${imports.size}_${bindings.size}`;
      bindings.set(binding, local);
    }
    return local;
  };
  const argTypes: string[] = [];
  for (const { declaration, fileName, exportName } of sorted) {
    const [binding, ...rest] = exportName.split('.');
    const target = [localFor(fileName, binding!), ...rest].join('.');
    // As JSON text: a compiler checks an object literal against the declaration's type, which cost tsgo 1.9 s of
    // 3.4 s at 2,000 tools; `JSON.parse` of a string is checked at once (and parses faster at run time).
    lines.push(`attachToolDeclaration(${target}, JSON.parse(${JSON.stringify(JSON.stringify(declaration))}));`);
    // A source form's relative paths are relative to the file that declares it (a build without the transformer does not
    // say). The directory is absolute: this module is compiled later by tsgo, esbuild, Vite or Bun, which may write it
    // anywhere (one bundle, an outDir this command never sees), so a path relative to its output could not be computed.
    if (declaration.source?.runs) lines.push(`setSourceBase(${target}, ${JSON.stringify(path.dirname(fileName))});`);
    argTypes.push(`    ${propertyKey(declaration.name)}: { fn: typeof ${target}; args: ${argumentsType(declaration, target)} };`);
  }
  const importLines = [...imports.entries()].map(([specifier, bindings]) => {
    const names = [...bindings.entries()].map(([binding, local]) => (binding === 'default' ? `default as ${local}` : `${binding} as ${local}`));
    return `import { ${names.join(', ')} } from '${specifier}';`;
  });
  return [
    GENERATED_MODULE_HEADER,
    "import { attachToolDeclaration } from '@toolwright/tool';",
    ...(sorted.some((entry) => entry.declaration.source?.runs) ? ["import { setSourceBase } from '@toolwright/sources';"] : []),
    ...importLines,
    '',
    ...lines,
    '',
    `export const toolNames = ${JSON.stringify(sorted.map((e) => e.declaration.name))} as const;`,
    '',
    "// Argument objects by wire name, for `ToolArgs<typeof fn>` / `ToolArgs<'name'>` from @toolwright/tool.",
    "declare module '@toolwright/tool' {",
    '  interface ToolArgsMap {',
    ...argTypes,
    '  }',
    '}',
    '',
  ].join('\n');
}

/**
 * The argument object of a tool as a type read from its function's signature (`target`, an expression naming it):
 * each declared argument typed by its parameter, optional as declared; a flattened tool's is its one parameter's type.
 * @example argumentsType(readFile, 'readFile_1_0') -> '{ path: Parameters<typeof readFile_1_0>[0]; limit?: Parameters<typeof readFile_1_0>[1] }'
 */
export function argumentsType(declaration: ToolDeclaration, target: string): string {
  if (declaration.argumentPassing === 'object') return `NonNullable<Parameters<typeof ${target}>[0]>`;
  return `{ ${declaration.parameterOrder
    .map((name, index) => `${propertyKey(name)}${declaration.parameters.required.includes(name) ? '' : '?'}: Parameters<typeof ${target}>[${index}]`)
    .join('; ')} }`;
}

export function propertyKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

export function importSpecifier(fromDir: string, fileName: string, extension: string): string {
  let relative = path
    .relative(fromDir, fileName)
    .replace(/\\/g, '/')
    .replace(/\.(m|c)?tsx?$/, (_, kind: string | undefined) => (kind === 'm' ? '.mjs' : kind === 'c' ? '.cjs' : extension));
  if (!relative.startsWith('.')) relative = `./${relative}`;
  return relative;
}
