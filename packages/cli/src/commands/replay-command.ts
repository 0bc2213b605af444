import { defineCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { USAGE } from '../usage.js';
import { configFlags } from './config-flags.js';

/**
 * `toolwright replay <audit.jsonl> --out <file.ts>`: the recorded calls as a module typed by each tool's current
 * signature. `toolwright replay <audit.jsonl> --run`: re-runs the calls of read-only pure and deterministic tools that
 * neither write nor spawn through the executor and compares their output hashes with the log's.
 */
export const replayCommand = defineCommand({
  options: {
    out: { type: 'string' },
    run: { type: 'boolean', default: false },
    project: { type: 'string', short: 'p' },
    workspace: { type: 'string' },
    config: { type: 'string' },
    policy: { type: 'string' },
    audit: { type: 'string' },
    yes: { type: 'boolean', default: false },
  },
  positionals: true,
  async run(values, positionals, io) {
    const [log, ...extra] = positionals;
    if (log === undefined || extra.length > 0) throw new CliError(`toolwright replay takes exactly one audit log.\n\n${USAGE}`, 2);
    if ((values.out === undefined) === !values.run) throw new CliError('toolwright replay needs either --out <file.ts> or --run (not both).', 2);
    if (values.out !== undefined) {
      for (const flag of ['workspace', 'config', 'policy', 'audit'] as const)
        if (values[flag] !== undefined) throw new CliError(`--${flag} applies to --run only; --out runs no call.`, 2);
      if (values.yes) throw new CliError('--yes applies to --run only; --out runs no call.', 2);
      const { writeReplayModule } = await import('../replay/write-replay-module.js');
      return writeReplayModule({ log, out: values.out, ...(values.project !== undefined ? { project: values.project } : {}) }, io);
    }
    const { replayRun } = await import('../replay/replay-run.js');
    return replayRun({ log, yes: values.yes, flags: configFlags(values) }, io);
  },
});
