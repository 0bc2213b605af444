import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
// @ts-expect-error: a plain .mjs script without declarations
import { generateConfigSchema, SCHEMA_FILE } from './config-schema.mjs';

describe('toolwright.config.schema.json', () => {
  it('is what the transformer makes of ToolwrightConfig (run node tools/config-schema/config-schema.mjs after changing the type)', () => {
    expect(fs.readFileSync(SCHEMA_FILE, 'utf8')).toBe(generateConfigSchema());
  });

  it('is a valid draft 2020-12 schema', () => {
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validateSchema(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8'))), JSON.stringify(ajv.errors)).toBe(true);
  });
});
