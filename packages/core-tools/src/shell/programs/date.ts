import { readArguments } from './judge-options.js';
import { flags, optional, refuse, valued, type ProgramSpec, type Refusal } from './program-spec.js';

/**
 * GNU date: `-s` sets the clock, and so does an operand that is not a `+FORMAT` (`date 010100002030`, MMDDhhmm[[CC]YY][.ss]:
 * found by a red-team pass); `-I` takes its format only glued (`-Iseconds`).
 */
export const date: ProgramSpec = {
  name: 'date',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('--debug', '-R --rfc-email', '--resolution', '-u --utc --universal', '--help', '--version'),
    ...valued('-d --date', '-f --file', '--rfc-3339', '-r --reference'),
    ...optional('-I --iso-8601'),
    refuse('sets-clock', '-s --set', { value: 'required' }),
  ],
  usage: { operands: ['+%F'] },
  judge: judgeDate,
};

/** An operand that is not a `+FORMAT` is a time to set the clock to. */
function judgeDate(args: readonly string[]): Refusal | undefined {
  const setting = readArguments(date, args)
    .operands.map((index) => args[index]!)
    .find((word) => !word.startsWith('+'));
  return setting === undefined ? undefined : { program: 'date', class: 'sets-clock', option: setting };
}
