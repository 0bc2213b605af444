import ts from 'typescript';

/**
 * A compiler host that parses JSDoc only where Toolwright reads it: in the project's own source
 * files (tool descriptions, `@param`, constraint tags). Declaration files — the default libs (lib.dom
 * alone is 2.3 MB), `@types`, dependencies — are parsed the way `tsc` parses them
 * (`ParseForTypeErrors`), which is what the compiler API's default host skips doing. A declaration
 * file whose JSDoc is needed after all is re-parsed on demand by the analysis (`JsDocReader`).
 */
/** `.d.ts`, `.d.mts`, `.d.cts` and declarations of other file kinds (`.d.css.ts`). */
const DECLARATION_FILE = /\.d\.([^/\\]+\.)?[cm]?ts$/i;

export function createCompilerHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    const parseOptions: ts.CreateSourceFileOptions =
      typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    const jsDocParsingMode = DECLARATION_FILE.test(fileName) ? ts.JSDocParsingMode.ParseForTypeErrors : ts.JSDocParsingMode.ParseAll;
    return getSourceFile(fileName, { ...parseOptions, jsDocParsingMode }, onError, shouldCreate);
  };
  return host;
}
