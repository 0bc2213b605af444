import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';
import { USAGE } from './usage.js';

/** Option declarations as `parseArgs` takes them. */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** Where a command writes: standard output and standard error (tests pass their own). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/**
 * The parsed values of a command's options, typed from their declaration: a string option is a
 * `string`, a `multiple` one a `string[]`, and either is never undefined when it has a default.
 */
export type OptionValues<O extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
>['values'];

/** One entry of the command table: its options, whether it takes operands, and what it does. */
export interface CliCommand<O extends OptionsConfig> {
  options: O;
  /** Takes operands (`call <tool>`); otherwise an operand is a usage error. */
  positionals?: boolean;
  run(values: OptionValues<O>, positionals: string[], io: CliIo): Promise<number>;
}

/** Declares a command; `values` in `run` is typed from `options`. */
export function defineCommand<const O extends OptionsConfig>(command: CliCommand<O>): CliCommand<O> {
  return command;
}

/** Parses `args` strictly against the command's options (a bad one is a usage error, with the usage text), then runs it. */
export function runCommand<O extends OptionsConfig>(command: CliCommand<O>, args: readonly string[], io: CliIo): Promise<number> {
  let parsed: { values: unknown; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options: command.options, allowPositionals: command.positionals ?? false, strict: true });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  return command.run(parsed.values as OptionValues<O>, parsed.positionals, io);
}
