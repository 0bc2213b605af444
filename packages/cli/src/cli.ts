import { CliError } from './cli-error.js';
import type { CliIo } from './cli-command.js';
import { COMMANDS } from './commands/command-table.js';
import { commandHelpRequest } from './help/command-help.js';
import { USAGE } from './usage.js';

/** Runs the CLI; returns the process exit code (0 ok, 1 findings, 2 usage). */
export async function main(
  argv: readonly string[],
  io: CliIo = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) },
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    const help = commandHelpRequest(argv, USAGE);
    if (help !== undefined) {
      io.out(help);
      return 0;
    }
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.out(USAGE);
      return command === undefined ? 2 : 0;
    }
    const name = command === '--version' || command === '-v' ? 'version' : command;
    const run = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!run) throw new CliError(`Unknown command '${command}'.${await didYouMean(command)}\n\n${USAGE}`, 2);
    return await run(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

/** ` Did you mean 'build'?` for a command name one or two edits from a real one (the executor loaded only then). */
async function didYouMean(command: string): Promise<string> {
  const { nearestNames } = await import('@toolwright/executor');
  const near = nearestNames(command.replace(/^-+/, ''), [...Object.keys(COMMANDS), 'help'], 1);
  return near.length > 0 ? ` Did you mean '${near[0]}'?` : '';
}
