/** An expected failure of a command: printed without a stack trace, with its exit code (1 = findings, 2 = usage). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
