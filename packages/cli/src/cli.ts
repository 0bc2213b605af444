import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';
import { emit } from './commands/emit.js';
import { emitWatch } from './commands/emit-watch.js';

const USAGE = `Usage: toolwright <command> [options]

Commands:
  emit    Write every @tool declaration of a project as JSON (and/or a module).
          --project, -p <tsconfig>   project to analyse (default: tsconfig.json)
          --out <file>               manifest path (default: tools.json beside the tsconfig)
          --module <file.ts>         also write a module that attaches the declarations,
                                     for builds that do not run TypeScript transformers
          --check                    fail when the files on disk differ (CI drift check)
          --watch                    re-emit after every change
  help    Show this text.
`;

/** Runs the CLI; returns the process exit code (0 ok, 1 findings, 2 usage). */
export async function main(argv: readonly string[], io = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) }): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'emit':
        return runEmit(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new CliError(`Unknown command '${command}'.\n\n${USAGE}`, 2);
    }
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

function runEmit(args: readonly string[], io: { out: (s: string) => void; err: (s: string) => void }): number | Promise<number> {
  const { values } = parse(args, {
    project: { type: 'string', short: 'p', default: 'tsconfig.json' },
    out: { type: 'string' },
    module: { type: 'string' },
    check: { type: 'boolean', default: false },
    watch: { type: 'boolean', default: false },
  });
  const options = {
    project: values.project as string,
    ...(values.out !== undefined ? { out: values.out as string } : {}),
    ...(values.module !== undefined ? { module: values.module as string } : {}),
    check: values.check as boolean,
  };
  const log = (line: string) => io.err(`${line}\n`);
  if (values.watch) {
    if (options.check) throw new CliError('--watch and --check cannot be combined.', 2);
    emitWatch(options, () => {}, log);
    return new Promise<number>(() => {}); // runs until the process is interrupted
  }
  const result = emit(options, log);
  return result.errorCount > 0 ? 1 : 0;
}

function parse(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: false, strict: true });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
}
