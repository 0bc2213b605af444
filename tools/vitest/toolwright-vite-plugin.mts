import path from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';
import { createSourceTransformer } from '@toolwright/transformer';

/**
 * Compiles matching TypeScript sources through the real compiler with the Toolwright transformer, so
 * tests import modules exactly as `tspc` builds them: TC39 decorators lowered (Vite's own transform
 * leaves them to the runtime, which Node 20 lacks) and tool declarations attached.
 * One program per tsconfig is kept and rebuilt (reusing unchanged files) when a source changes.
 */
export function toolwrightVitePlugin(options: { include: RegExp }): Plugin {
  const programs = new Map<string, ts.Program>();

  const programFor = (file: string, code: string): ts.Program => {
    const configPath = ts.findConfigFile(path.dirname(file), ts.sys.fileExists);
    if (!configPath) throw new Error(`toolwright-vite-plugin: no tsconfig.json above ${file}`);
    const previous = programs.get(configPath);
    if (previous && previous.getSourceFile(file)?.text === code) return previous;
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    const compilerOptions: ts.CompilerOptions = {
      ...parsed.options,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      customConditions: ['@toolwright/source'],
      noEmit: false,
      // The output runs where the source is (a source form's paths are recorded relative to the output file).
      outDir: undefined,
      declaration: false,
      declarationMap: false,
      composite: false,
      incremental: false,
      sourceMap: false,
      inlineSourceMap: true,
      inlineSources: true,
      verbatimModuleSyntax: false,
    };
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: compilerOptions, ...(previous ? { oldProgram: previous } : {}) });
    programs.set(configPath, program);
    return program;
  };

  return {
    name: 'toolwright-transform',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!file.endsWith('.ts') || file.endsWith('.d.ts') || !options.include.test(file)) return null;
      const program = programFor(file, code);
      const sourceFile = program.getSourceFile(file);
      if (!sourceFile) return null;
      let output: string | undefined;
      program.emit(
        sourceFile,
        (name, text) => {
          if (name.endsWith('.js')) output = text;
        },
        undefined,
        false,
        { before: [createSourceTransformer(program)] },
      );
      return output === undefined ? null : { code: output, map: null };
    },
  };
}
