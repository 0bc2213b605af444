/** How a program parses its options, as far as telling option values from operands needs. */
export interface OptionSpec {
  /** Short options that take a value: the rest of the cluster (`-A3`) or the next word (`-A 3`). */
  valued: string;
  /** Short options that take none. Any other short option is read as taking a value: the safe reading. */
  flags: string;
  /** Long options that take no value. Any other long option without `=` is read as taking the next word. */
  longFlags: readonly string[];
}

/** A command's words split as the program reads them (GNU getopt: options and operands in any order). */
export interface ScannedArguments {
  operands: string[];
  options: { name: string; value?: string }[];
}

/**
 * Splits arguments into options (with their values) and operands, reading every option the spec
 * does not know as one that takes a value. That reading errs one way only: a word it takes for a
 * value is never judged as an operand, so a caller that must find the operands (the paths a
 * command reads) sees fewer of them and falls back to its default (the working directory), never more.
 * Digits are flags (`grep -5` is five lines of context). `--` ends the options.
 * @example scanArguments(['-rn', '-e', 'x', 'src'], grepSpec) // { operands: ['src'], options: [r, n, e=x] }
 */
export function scanArguments(args: readonly string[], spec: OptionSpec): ScannedArguments {
  const operands: string[] = [];
  const options: ScannedArguments['options'] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      operands.push(arg);
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq !== -1) options.push({ name: arg.slice(0, eq), value: arg.slice(eq + 1) });
      else if (spec.longFlags.includes(arg)) options.push({ name: arg });
      else options.push({ name: arg, value: args[++i] ?? '' });
      continue;
    }
    for (let at = 1; at < arg.length; at++) {
      const char = arg[at]!;
      if (spec.flags.includes(char) || /\d/.test(char)) {
        options.push({ name: `-${char}` });
        continue;
      }
      const rest = arg.slice(at + 1);
      options.push({ name: `-${char}`, value: rest !== '' ? rest : (args[++i] ?? '') });
      break;
    }
  }
  return { operands, options };
}

/**
 * The options among `names` (`-r`, `--recursive`), a long one also by any prefix, as GNU getopt
 * accepts an unambiguous one: an ambiguous prefix counts too, which errs on the side of finding it.
 */
export function optionsNamed(scanned: ScannedArguments, ...names: string[]): ScannedArguments['options'] {
  return scanned.options.filter(
    ({ name }) => names.includes(name) || (name.startsWith('--') && name.length > 2 && names.some((full) => full.startsWith('--') && full.startsWith(name))),
  );
}
