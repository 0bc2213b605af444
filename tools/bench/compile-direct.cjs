// The "direct" route: drive the compiler API with Toolwright's transformers, no ts-patch at all.
// node tools/bench/compile-direct.cjs <tsconfig>
const path = require('node:path');
const ts = require('typescript');
const { createSourceTransformer, withToolDiagnostics } = require('@toolwright/transformer');
const configPath = path.resolve(process.argv[2]);
const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = withToolDiagnostics(ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options }));
const diagnostics = ts.getPreEmitDiagnostics(program);
const result = program.emit(undefined, undefined, undefined, false, { before: [createSourceTransformer(program)] });
const all = [...diagnostics, ...result.diagnostics];
if (all.length > 0) {
  process.stderr.write(ts.formatDiagnostics(all, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' }));
  process.exit(1);
}
