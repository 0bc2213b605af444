import { flags, type ProgramSpec } from './program-spec.js';

/** Node.js runs whatever code it is given; only `node --version` is in the default allowlist. */
export const node: ProgramSpec = {
  name: 'node',
  role: 'plain',
  syntax: 'getopt',
  defaultAllow: ['--version'],
  options: flags('-v --version'),
  usage: { operands: [] },
};
