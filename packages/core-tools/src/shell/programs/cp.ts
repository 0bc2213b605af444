import { flags, optional, refuse, valued, type ProgramSpec } from './program-spec.js';

/**
 * GNU cp copies whole trees with `-r`, `-R` and `-a` (each source is then checked for protected
 * paths). `-H` follows links named on the command line only, which the argument checks resolve; a
 * backup suffix makes names nobody wrote (`cp -b -S it a .g` renames `.g` to `.git`); `--keep-directory-symlink`
 * (coreutils 9.5 on) copies into a folder through a link already in the destination, which nothing judged; `-l`
 * makes hard links, which the sandbox refuses (a second name for a file that may be protected or hidden later).
 */
export const cp: ProgramSpec = {
  name: 'cp',
  role: 'tree-copier',
  syntax: 'getopt',
  defaultAllow: true,
  options: [
    // Copied as links (a relative one then points elsewhere from its new folder), or made: see `linkOrderProblem`.
    { names: ['-a', '--archive'], copiesTrees: true, makesLinks: true },
    { names: ['-R', '-r', '--recursive'], copiesTrees: true, makesLinks: true },
    { names: ['-d'], makesLinks: true },
    { names: ['-P', '--no-dereference'], makesLinks: true },
    { names: ['-s', '--symbolic-link'], makesLinks: true },
    ...flags('--attributes-only', '--copy-contents', '-f --force', '-i --interactive', '-H', '-n --no-clobber'),
    ...flags('-p', '--parents', '--remove-destination', '--strip-trailing-slashes'),
    ...flags('-T --no-target-directory', '-u', '-v --verbose', '-x --one-file-system', '-Z', '--debug'),
    ...flags('--help', '--version'),
    ...valued('--no-preserve', '--sparse', '-t --target-directory'),
    ...optional('--preserve', '--reflink', '--update', '--context'),
    refuse('follows-links', '-L --dereference'),
    refuse('makes-hard-links', '-l --link'),
    refuse('follows-links', '--keep-directory-symlink'),
    refuse('makes-names', '-b'),
    refuse('makes-names', '--backup', { value: 'optional' }),
    refuse('makes-names', '-S --suffix', { value: 'required' }),
  ],
  usage: { operands: ['notes.txt', 'copy.txt'] },
};
