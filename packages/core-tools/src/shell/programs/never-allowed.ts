import { neverAllowed, type ProgramSpec } from './program-spec.js';

/** Shells and builtins that run code given as text, or change how later words are read. */
export const CODE_RUNNERS: readonly ProgramSpec[] = neverAllowed([
  'eval',
  'exec',
  'source',
  '.',
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'builtin',
  'enable',
  'coproc',
  'trap',
  'alias',
  'unalias',
  'fc',
  'history',
  'complete',
]);

/** Programs that run a command as someone else, or in another root or namespace or session. */
export const PRIVILEGE_CHANGERS: readonly ProgramSpec[] = neverAllowed(['sudo', 'su', 'doas', 'pkexec', 'chroot', 'setsid', 'unshare', 'nsenter']);

/** Builtins that change the shell's state: its variables, options, limits and jobs. */
export const SHELL_STATE_BUILTINS: readonly ProgramSpec[] = neverAllowed([
  'set',
  'declare',
  'typeset',
  'readonly',
  'local',
  'read',
  'mapfile',
  'readarray',
  'getopts',
  'let',
  'hash',
  'shopt',
  'ulimit',
  'umask',
  'kill',
  'disown',
  'wait',
]);
