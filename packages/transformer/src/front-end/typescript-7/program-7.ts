import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_MODULE_HEADER, isGeneratedModule } from '../../generated-module.js';
import type { ts } from '../typescript.js';
import { checkerView } from './checker-7.js';
import type { Project7, SourceFile7, TypeScript7 } from './typescript-7-api.js';
import { Views7 } from './views-7.js';

/**
 * A TypeScript 7 project presented as the `ts.Program` the analysis reads: its files (TypeScript 7's
 * own nodes), which of them are libraries (kept in `libraries` across the project's refreshes), its
 * options, and a checker of views (`checker-7.ts`).
 */
/** Whether a file is the default library's or an external package's, as the compiler said (it does not change while the file keeps its name). */
export interface FileOrigin7 {
  isDefaultLibrary: boolean;
  isFromExternalLibrary: boolean;
}

export function programView(typescript: TypeScript7, project: Project7, libraries = new Map<string, FileOrigin7>()): ts.Program {
  const program = project.program;
  const views = new Views7(project, typescript);
  const checker = checkerView(views);
  let files: SourceFile7[] | undefined;
  const view = {
    getTypeChecker: () => checker,
    getCompilerOptions: () => ({ ...project.compilerOptions, configFilePath: project.configFileName }),
    getCurrentDirectory: () => path.dirname(project.configFileName),
    // The project's own files: the analysis skips the default library's and external libraries' (their
    // syntax trees, `lib.dom.d.ts` among them, are most of what the compiler would send).
    getSourceFiles: () => (files ??= projectFiles()),
    getSourceFile: (fileName: string) => program.getSourceFile(fileName),
    // Answered from what the compiler said of each file once (a question each, every time, otherwise).
    isSourceFileDefaultLibrary: (file: SourceFile7) => libraries.get(file.fileName)?.isDefaultLibrary ?? program.isSourceFileDefaultLibrary(file),
    isSourceFileFromExternalLibrary: (file: SourceFile7) =>
      libraries.get(file.fileName)?.isFromExternalLibrary ?? program.isSourceFileFromExternalLibrary(file),
  };
  views.libraryFiles = libraries;
  const askAll = project.askAll;
  const projectFiles = (): SourceFile7[] => {
    const names = program.getSourceFileNames();
    // Whether a file is a library's does not change while it keeps its name: asked once per open project.
    const unknown = names.filter((name) => !libraries.has(name));
    const metadata = askAll
      ? askAll(unknown.map((fileName) => ({ ask: 'metadata' as const, fileName })))
      : unknown.map((name) => program.getSourceFileMetadata(name));
    metadata.forEach((each, index) =>
      libraries.set(unknown[index]!, { isDefaultLibrary: Boolean(each?.isDefaultLibrary), isFromExternalLibrary: Boolean(each?.isFromExternalLibrary) }),
    );
    const own = names.filter((name) => !isLibrary(libraries.get(name)) && !generatedOnDisk(name));
    const files = askAll ? askAll(own.map((fileName) => ({ ask: 'sourceFile' as const, fileName }))) : own.map((name) => program.getSourceFile(name));
    return files.filter((file): file is SourceFile7 => file !== undefined);
  };
  return view as unknown as ts.Program;
}

function isLibrary(origin: FileOrigin7 | undefined): boolean {
  return Boolean(origin?.isDefaultLibrary || origin?.isFromExternalLibrary);
}

/** Whether the file on disk is `toolwright emit --module`'s (its syntax tree, every declaration as a literal, is never fetched). */
function generatedOnDisk(fileName: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(fileName, 'r');
    const head = Buffer.alloc(GENERATED_MODULE_HEADER.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return isGeneratedModule(head.subarray(0, read).toString('utf8'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
