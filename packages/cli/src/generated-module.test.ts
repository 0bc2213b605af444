import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '@toolwright/schema';
import { renderModule } from './generated-module.js';

const declaration = (name: string, runs?: 'wasm' | 'subprocess' | 'http'): ToolDeclaration => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  parameterOrder: ['text'],
  metadata: {
    tier: 'read-only',
    timeoutMs: 30_000,
    sideEffects: [],
    capabilities: [],
    determinism: 'maybe',
    resources: { timeoutMs: 30_000 },
    parallel: true,
    tags: [],
  },
  source: { file: 'src/tools.ts', line: 1, exportName: name, form: 'wrapper', ...(runs ? { runs } : {}) },
});

describe('the module `toolwright emit --module` writes', () => {
  const root = path.resolve('/project');
  const moduleFile = path.join(root, 'src', 'tools.gen.ts');

  // Absolute: the generated module is compiled later by a bundler or tsgo, which may write it anywhere.
  it("records a source tool's declaring directory as an absolute path, which its relative paths are relative to", () => {
    const text = renderModule(
      [
        { declaration: declaration('slugify', 'wasm'), fileName: path.join(root, 'src', 'plugins', 'tools.ts'), exportName: 'slugify' },
        { declaration: declaration('plain'), fileName: path.join(root, 'src', 'plain.ts'), exportName: 'plain' },
      ],
      moduleFile,
    );
    expect(text).toContain("import { setSourceBase } from '@toolwright/sources';");
    expect(text).toMatch(/setSourceBase\(slugify_\d+_\d+, "\/project\/src\/plugins"\);/);
    expect(text.match(/setSourceBase\(/g)).toHaveLength(1);
  });

  it('imports nothing of @toolwright/sources when no tool runs elsewhere', () => {
    const text = renderModule([{ declaration: declaration('plain'), fileName: path.join(root, 'src', 'plain.ts'), exportName: 'plain' }], moduleFile);
    expect(text).not.toContain('@toolwright/sources');
    expect(text).not.toContain('setSourceBase');
  });
});
