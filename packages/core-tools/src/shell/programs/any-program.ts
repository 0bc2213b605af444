import { refuse, type OptionSpec } from './program-spec.js';

/**
 * Options refused for every program, with a spec or without (an operator may allow `tar` or
 * `rsync`): each reads a list of file names from a file, and those names would never be judged.
 * Matched as GNU getopt_long matches them, by any prefix, so `--files` is refused too, even for a
 * program whose own `--files` reads no list (rg).
 */
export const ANY_PROGRAM_OPTIONS: readonly OptionSpec[] = [refuse('reads-name-list', '--files0-from --files-from -files0-from', { value: 'required' })];
