import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';
import { createSourceTransformer } from '@toolwright/transformer';

const REPO = path.resolve(import.meta.dirname, '../..');
const CACHE = path.join(REPO, 'node_modules', '.cache', 'toolwright-vite');

/**
 * Compiles matching TypeScript sources through the real compiler with the Toolwright transformer, so
 * tests import modules exactly as `tspc` builds them: TC39 decorators lowered (Vite's own transform
 * leaves them to the runtime, which Node 20 lacks) and tool declarations attached.
 * One program per tsconfig is kept and rebuilt (reusing unchanged files) when a source changes.
 *
 * Each test file that runs in a process of its own would build that program again (about 2 s: the
 * compiler, the type checker over the package and its imports), so what it emits is kept on disk
 * (`node_modules/.cache/toolwright-vite`), under a key that changes when any file the output could
 * depend on changes: every package's sources, the transformer as built, the tsconfigs, the lockfile.
 */
export function toolwrightVitePlugin(options: { include: RegExp }): Plugin {
  const programs = new Map<string, ts.Program>();
  let inputsKey: string | undefined;

  const programFor = (file: string, code: string): ts.Program => {
    const configPath = ts.findConfigFile(path.dirname(file), ts.sys.fileExists);
    if (!configPath) throw new Error(`toolwright-vite-plugin: no tsconfig.json above ${file}`);
    const previous = programs.get(configPath);
    // A file the program leaves out (test support outside the tsconfig's files) is not compiled by it: no rebuild.
    if (previous && (previous.getSourceFile(file)?.text === code || !previous.getRootFileNames().includes(file))) return previous;
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

  const compile = (file: string, code: string): string | undefined => {
    const program = programFor(file, code);
    const sourceFile = program.getSourceFile(file);
    if (!sourceFile) return undefined;
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
    return output;
  };

  return {
    name: 'toolwright-transform',
    enforce: 'pre',
    // Under `vitest --watch`, a changed source may change what other files compile to: key and programs start afresh.
    watchChange() {
      inputsKey = undefined;
      programs.clear();
    },
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!file.endsWith('.ts') || file.endsWith('.d.ts') || !options.include.test(file)) return null;
      inputsKey ??= keyOfInputs(REPO);
      const cached = path.join(CACHE, crypto.createHash('sha256').update(`${inputsKey}\0${file}\0${code}`).digest('hex'));
      let output: string | undefined;
      try {
        // What the compiler emitted, or `-` for a file outside the program (test support the tsconfig leaves out).
        const text = fs.readFileSync(cached, 'utf8');
        output = text === '-' ? undefined : text.slice(1);
      } catch {
        output = compile(file, code);
        writeAtomically(cached, output === undefined ? '-' : `+${output}`);
      }
      return output === undefined ? null : { code: output, map: null };
    },
  };
}

/**
 * A digest of everything a compiled file could depend on, by path, size and modification time: the packages'
 * sources and manifests, the transformer as built, the tsconfigs, the lockfile (the compiler and the types in
 * `node_modules`), and this plugin.
 */
export function keyOfInputs(repo: string): string {
  const hash = crypto.createHash('sha256').update(ts.version);
  const add = (file: string) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    hash.update(`${file}\0${stat?.size ?? -1}\0${stat?.mtimeMs ?? -1}\n`);
  };
  const addTree = (dir: string, keep: (name: string) => boolean) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }).sort((a, b) => compare(a, b))) {
      if (entry.isFile() && keep(entry.name)) add(path.join(entry.parentPath, entry.name));
    }
  };
  for (const file of ['package-lock.json', 'tsconfig.base.json', 'tools/vitest/toolwright-vite-plugin.mts']) add(path.join(repo, file));
  const packages = path.join(repo, 'packages');
  for (const name of fs.readdirSync(packages).sort()) {
    const dir = path.join(packages, name);
    for (const file of fs
      .readdirSync(dir)
      .filter((f) => /^(package\.json|tsconfig.*\.json)$/.test(f))
      .sort())
      add(path.join(dir, file));
    if (fs.existsSync(path.join(dir, 'src'))) addTree(path.join(dir, 'src'), (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  }
  const transformer = path.join(packages, 'transformer', 'dist');
  if (fs.existsSync(transformer)) addTree(transformer, (f) => f.endsWith('.js'));
  return hash.digest('hex');
}

function compare(a: fs.Dirent, b: fs.Dirent): number {
  const left = path.join(a.parentPath, a.name);
  const right = path.join(b.parentPath, b.name);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Writes under a name of its own, then renames: a process reading the cache never sees half a file. */
function writeAtomically(file: string, text: string): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, file);
  } catch {
    // A cache that cannot be written costs the next process a compile, nothing else.
  }
}
