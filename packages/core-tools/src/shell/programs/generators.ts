import { flags, valued, type ProgramSpec } from './program-spec.js';

const GNU_INFO = flags('--help', '--version');

/** GNU seq. */
export const seq: ProgramSpec = {
  name: 'seq',
  role: 'reader',
  syntax: 'getopt',
  defaultAllow: true,
  options: [...flags('-w --equal-width'), ...valued('-f --format', '-s --separator'), ...GNU_INFO],
  usage: { operands: ['1', '3'] },
};

/** GNU yes. */
export const yes: ProgramSpec = { name: 'yes', role: 'reader', syntax: 'getopt', defaultAllow: true, options: GNU_INFO, usage: { operands: ['y'] } };

/** GNU sleep. */
export const sleep: ProgramSpec = { name: 'sleep', role: 'reader', syntax: 'getopt', defaultAllow: true, options: GNU_INFO, usage: { operands: ['0'] } };
