import { flags, valued, type ProgramSpec } from './program-spec.js';

const GNU_INFO = flags('--help', '--version');

/** GNU basename: it only prints names. */
export const basename: ProgramSpec = {
  name: 'basename',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [...flags('-a --multiple', '-z --zero'), ...valued('-s --suffix'), ...GNU_INFO],
  usage: { operands: ['src/a.ts'] },
};

/** GNU dirname: it only prints names. */
export const dirname: ProgramSpec = {
  name: 'dirname',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [...flags('-z --zero'), ...GNU_INFO],
  usage: { operands: ['src/a.ts'] },
};

/** GNU realpath: `-L` resolves `..` before links (it follows nothing more); the argument checks resolve its operands. */
export const realpath: ProgramSpec = {
  name: 'realpath',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    ...flags('-e --canonicalize-existing', '-m --canonicalize-missing', '-L --logical', '-P --physical', '-q --quiet', '-s --strip --no-symlinks'),
    ...flags('-z --zero'),
    ...valued('--relative-to', '--relative-base'),
    ...GNU_INFO,
  ],
  usage: { operands: ['src/a.ts'] },
};

/** Debian's which. */
export const which: ProgramSpec = {
  name: 'which',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: flags('-a', '-s'),
  usage: { operands: ['ls'] },
};
