import { defineCommand } from '../cli-command.js';
import { requireCompilerApi } from '../compiler-api.js';
import { preloadTypeScript } from '../typescript-code-cache.js';

/** `toolwright build`: compiles a project like `tsc -p`, with the transformers. */
export const buildCommand = defineCommand({
  options: {
    project: { type: 'string', short: 'p', default: 'tsconfig.json' },
    pretty: { type: 'boolean' },
    'no-pretty': { type: 'boolean', default: false },
  },
  async run(values, _positionals, io) {
    preloadTypeScript();
    requireCompilerApi('toolwright build'); // before the transformer loads: it needs the compiler API at once
    const { build } = await import('./build.js');
    const pretty = values['no-pretty'] ? false : values.pretty;
    const result = build({ project: values.project, ...(pretty !== undefined ? { pretty } : {}) }, (text) => io.err(text));
    return result.errorCount > 0 ? 1 : 0;
  },
});
