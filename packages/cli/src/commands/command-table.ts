import { runCommand, type CliIo } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { cliVersion } from '../version.js';
import { buildCommand } from './build-command.js';
import { callCommand } from './call-command.js';
import { doctorCommand } from './doctor-command.js';
import { emitCommand } from './emit-command.js';
import { initCommand } from './init-command.js';
import { listCommand } from './list-command.js';
import { runPolicy } from './policy-command.js';
import { replayCommand } from './replay-command.js';
import { serveCommand } from './serve-command.js';

/**
 * Every command by name. Each loads what it needs when it runs: `toolwright emit` never loads the
 * executor, the core tools or the MCP SDK, and `toolwright call` never loads the compiler unless a
 * project is given.
 */
export const COMMANDS: Readonly<Record<string, (args: readonly string[], io: CliIo) => Promise<number>>> = {
  init: (args, io) => runCommand(initCommand, args, io),
  emit: (args, io) => runCommand(emitCommand, args, io),
  build: (args, io) => runCommand(buildCommand, args, io),
  list: (args, io) => runCommand(listCommand, args, io),
  call: (args, io) => runCommand(callCommand, args, io),
  replay: (args, io) => runCommand(replayCommand, args, io),
  policy: runPolicy,
  serve: (args, io) => runCommand(serveCommand, args, io),
  doctor: (args, io) => runCommand(doctorCommand, args, io),
  version: async (args, io) => {
    if (args.length > 0) throw new CliError(`toolwright version takes no arguments (got '${args[0]}').`, 2);
    io.out(`toolwright ${cliVersion()}\n`);
    return 0;
  },
};
