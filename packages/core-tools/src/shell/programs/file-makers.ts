import { LOOSE_MODE_BITS, modeGiven } from './file-mode.js';
import { readArguments } from './judge-options.js';
import { flags, optional, valued, type ProgramSpec, type Refusal } from './program-spec.js';

const GNU_INFO = flags('--help', '--version');

/**
 * GNU mkdir. A mode (`-m`) with a set-ID bit or the group's or others' write bit is refused, as the sandbox's seccomp
 * filter refuses it (the judge said yes and the command then failed: a red-team pass). A mode the judge cannot read is
 * mkdir's to refuse (`invalid mode`), and the filter's to hold if mkdir reads it after all.
 */
export const mkdir: ProgramSpec = {
  name: 'mkdir',
  role: 'plain',
  syntax: 'getopt',
  defaultAllow: true,
  options: [...flags('-p --parents', '-v --verbose', '-Z'), ...valued('-m --mode'), ...optional('--context'), ...GNU_INFO],
  usage: { operands: ['new-dir'] },
  judge: (args) => judgeModes(mkdir, args),
};

/** The first `-m`/`--mode` value read as a loose mode. */
function judgeModes(spec: ProgramSpec, args: readonly string[]): Refusal | undefined {
  for (const { name, option, value, index } of readArguments(spec, args).options) {
    if (!option?.names.includes('--mode') || value === undefined) continue;
    const mode = modeGiven(value);
    if (mode !== undefined && (mode & LOOSE_MODE_BITS) !== 0) {
      const word = args[index]!;
      return { program: spec.name, class: 'loose-mode', option: name, written: word.endsWith(value) ? word : `${word} ${value}` };
    }
  }
  return undefined;
}

/** GNU touch. */
export const touch: ProgramSpec = {
  name: 'touch',
  role: 'plain',
  syntax: 'getopt',
  defaultAllow: true,
  options: [...flags('-a', '-c --no-create', '-f', '-h --no-dereference', '-m'), ...valued('-d --date', '-r --reference', '-t', '--time'), ...GNU_INFO],
  usage: { operands: ['new-file'] },
};
