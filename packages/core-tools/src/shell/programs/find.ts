import { flags, refuse, valued, type ProgramSpec } from './program-spec.js';

/**
 * GNU find reads whole words: its leading options and its expression's primaries, never
 * abbreviated or clustered, and a primary after `--` is still a primary. `-H` follows links named on
 * the command line only, which the argument checks resolve.
 */
export const find: ProgramSpec = {
  name: 'find',
  role: 'reader',
  syntax: 'words',
  defaultAllow: true,
  options: [
    ...flags('-H', '-P', '-daystart', '-depth', '-d', '-empty', '-executable', '-false', '-true', '-ignore_readdir_race', '-noignore_readdir_race'),
    ...flags('-mount', '-xdev', '-noleaf', '-nowarn', '-warn', '-nogroup', '-nouser', '-readable', '-writable', '-print', '-print0', '-ls'),
    ...flags('-prune', '-quit', '-not', '-a', '-and', '-o', '-or', '!', ',', '(', ')', '--help', '--version'),
    ...valued('-D', '-maxdepth', '-mindepth', '-regextype', '-amin', '-anewer', '-atime', '-cmin', '-cnewer', '-context', '-ctime', '-fstype'),
    ...valued('-gid', '-group', '-ilname', '-iname', '-inum', '-ipath', '-iregex', '-iwholename', '-links', '-lname', '-mmin', '-mtime'),
    ...valued('-name', '-newer', '-path', '-perm', '-regex', '-samefile', '-size', '-type', '-uid', '-used', '-user', '-wholename', '-xtype'),
    ...valued('-printf'),
    refuse('follows-links', '-L -follow'),
    refuse('runs-programs', '-exec -execdir -ok -okdir', { value: 'required' }),
    refuse('deletes-files', '-delete'),
    refuse('writes-files', '-fprint -fprint0 -fls -fprintf', { value: 'required' }),
    refuse('reads-name-list', '-files0-from', { value: 'required' }),
  ],
  usage: { operands: ['.', '-name', '*.ts'] },
};
