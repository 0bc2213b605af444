#!/usr/bin/env node
// Generates packages/cli/toolwright.config.schema.json from the `ToolwrightConfig` type with the
// project's own transformer: `config-tool.ts` declares a @tool whose one parameter is that type, and
// the parameter's schema is the file's schema. `node tools/config-schema/config-schema.mjs` writes
// it; `--check` fails when the committed file differs (config-schema.test.ts runs the same check).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { analyzeProgram, formatDiagnostics } from '@toolwright/transformer';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
export const SCHEMA_FILE = path.join(root, 'packages', 'cli', 'toolwright.config.schema.json');

/** The schema text, as committed. Throws with the transformer's diagnostics when the type has no JSON Schema form. */
export function generateConfigSchema() {
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    customConditions: ['@toolwright/source'],
  };
  const program = ts.createProgram({ rootNames: [path.join(here, 'config-tool.ts')], options });
  // Not strictJson: a policy example's `args` is any JSON object by design (TW1104 is a warning).
  const analysis = analyzeProgram(program, { rootDir: here });
  const errors = analysis.diagnostics.filter((d) => d.category === 'error');
  if (errors.length > 0) throw new Error(formatDiagnostics(errors, { fileName: (f) => path.relative(root, f) }));
  const declaration = analysis.tools.find((t) => t.declaration?.name === 'toolwright_config')?.declaration;
  if (!declaration) throw new Error('config-tool.ts declares no toolwright_config tool');
  const { properties, $defs } = declaration.parameters;
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://toolwright.dev/toolwright.config.schema.json',
    title: 'toolwright.config.json',
    ...properties.config,
    ...($defs ? { $defs } : {}),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = generateConfigSchema();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
    if (current !== text) {
      console.error(`${path.relative(root, SCHEMA_FILE)} differs from the ToolwrightConfig type; run node tools/config-schema/config-schema.mjs`);
      process.exit(1);
    }
  } else {
    fs.writeFileSync(SCHEMA_FILE, text);
    console.log(`wrote ${path.relative(root, SCHEMA_FILE)}`);
  }
}
