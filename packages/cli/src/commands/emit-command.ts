import fs from 'node:fs';
import path from 'node:path';
import { defineCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { requireCompilerApi } from '../compiler-api.js';
import { projectTypeScript } from '../project-typescript.js';
import { preloadTypeScript } from '../typescript-code-cache.js';

/** `toolwright emit`: a project's declarations as JSON (and/or a module), once, checked, or watched. */
export const emitCommand = defineCommand({
  options: {
    project: { type: 'string', short: 'p', default: 'tsconfig.json' },
    out: { type: 'string' },
    module: { type: 'string' },
    check: { type: 'boolean', default: false },
    watch: { type: 'boolean', default: false },
    'keep-going': { type: 'boolean', default: false },
    typescript: { type: 'string' },
  },
  async run(values, _positionals, io) {
    const options = {
      project: values.project,
      ...(values.out !== undefined ? { out: values.out } : {}),
      ...(values.module !== undefined ? { module: values.module } : {}),
      check: values.check,
      keepGoing: values['keep-going'],
    };
    const log = (line: string) => io.err(`${line}\n`);
    if (options.check && values.watch) throw new CliError('--watch and --check cannot be combined.', 2);
    // TypeScript 7 (the project's `typescript`, or --typescript 7): read through the native compiler's own API.
    const project = path.resolve(values.project);
    const typescript = projectTypeScript(fs.existsSync(project) && fs.statSync(project).isDirectory() ? project : path.dirname(project), values.typescript);
    if (typescript.major === 7) {
      preloadTypeScript(); // the transformer loads TypeScript 6's module as its default surface: from the code cache
      const { emitTypeScript7, emitWatchTypeScript7 } = await import('./emit-typescript-7.js');
      if (values.watch) {
        await emitWatchTypeScript7(options, typescript, () => {}, log);
        return new Promise<number>(() => {}); // runs until the process is interrupted
      }
      return (await emitTypeScript7(options, typescript, log)).errorCount > 0 ? 1 : 0;
    }
    preloadTypeScript();
    requireCompilerApi('toolwright emit'); // before the transformer loads: it needs the compiler API at once
    if (values.watch) {
      if (options.check) throw new CliError('--watch and --check cannot be combined.', 2);
      const { emitWatch } = await import('./emit-watch.js');
      emitWatch(options, () => {}, log);
      return new Promise<number>(() => {}); // runs until the process is interrupted
    }
    const { emit } = await import('./emit.js');
    const result = emit(options, log);
    return result.errorCount > 0 ? 1 : 0;
  },
});
