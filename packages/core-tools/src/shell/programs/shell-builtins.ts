import { flags, refuse, type ProgramSpec } from './program-spec.js';

/** bash's echo. */
export const echo: ProgramSpec = {
  name: 'echo',
  role: 'reader',
  syntax: 'builtin',
  defaultAllow: true,
  options: flags('-n', '-e', '-E'),
  usage: { operands: ['hi'] },
};

/** bash's printf: `-v NAME` assigns the output to a shell variable instead of printing it. */
export const printf: ProgramSpec = {
  name: 'printf',
  role: 'reader',
  syntax: 'builtin',
  defaultAllow: true,
  options: [refuse('sets-variables', '-v', { value: 'required' })],
  usage: { operands: ['%s\\n', 'hi'] },
};

/** bash's pwd. */
export const pwd: ProgramSpec = { name: 'pwd', role: 'reader', syntax: 'builtin', defaultAllow: true, options: flags('-L', '-P'), usage: { operands: [] } };

/** bash's cd: where it leads is judged with the command line (every later path is checked from there too). */
export const cd: ProgramSpec = {
  name: 'cd',
  role: 'reader',
  syntax: 'builtin',
  defaultAllow: true,
  options: flags('-L', '-P', '-e', '-@'),
  usage: { operands: ['src'] },
};

/** bash's true. */
export const trueProgram: ProgramSpec = { name: 'true', role: 'reader', syntax: 'builtin', defaultAllow: true, options: [], usage: { operands: [] } };

/** bash's false. */
export const falseProgram: ProgramSpec = { name: 'false', role: 'reader', syntax: 'builtin', defaultAllow: true, options: [], usage: { operands: [] } };

/**
 * `export` never runs as a command; with the `assignment` permit, `export NAME=value` is judged as
 * an assignment. It writes no file, so it may run before git.
 */
export const exportBuiltin: ProgramSpec = { name: 'export', role: 'reader', syntax: 'builtin', options: [], refused: 'never', usage: { operands: [] } };

/**
 * Not a program: the name the analysis gives `NAME=value` statements (with the `assignment`
 * permit). It writes no file, so it may run before git.
 */
export const assignmentStatement: ProgramSpec = { name: 'assignment', role: 'reader', syntax: 'words', options: [], usage: { operands: [] } };
