import { COMMAND_BUILDERS } from './command-builders.js';
import { cp } from './cp.js';
import { date } from './date.js';
import { diff } from './diff.js';
import { du, file, stat } from './file-info.js';
import { mkdir, touch } from './file-makers.js';
import { find } from './find.js';
import { seq, sleep, yes } from './generators.js';
import { git } from './git.js';
import { ls, tree } from './listing.js';
import { CODE_RUNNERS, PRIVILEGE_CHANGERS, SHELL_STATE_BUILTINS } from './never-allowed.js';
import { node } from './node.js';
import { basename, dirname, realpath, which } from './path-names.js';
import type { ProgramSpec } from './program-spec.js';
import { grep, rg } from './search.js';
import { sed } from './sed.js';
import { assignmentStatement, cd, echo, exportBuiltin, falseProgram, printf, pwd, trueProgram } from './shell-builtins.js';
import { sort } from './sort.js';
import { cat, cut, head, tail, tr, uniq, wc } from './text-filters.js';
import { command, env, nice, nohup, timeout } from './wrappers.js';

/**
 * Every program Toolwright knows, one spec each. The default allowlist lists the `defaultAllow`
 * ones in this order (its error message shows the first twelve).
 */
export const PROGRAM_SPECS: readonly ProgramSpec[] = [
  ls,
  cat,
  head,
  tail,
  wc,
  grep,
  rg,
  find,
  echo,
  printf,
  pwd,
  sort,
  uniq,
  cut,
  tr,
  diff,
  sed,
  date,
  trueProgram,
  falseProgram,
  basename,
  dirname,
  realpath,
  stat,
  file,
  du,
  tree,
  mkdir,
  touch,
  cp,
  sleep,
  seq,
  yes,
  which,
  cd,
  git,
  node,
  env,
  timeout,
  nice,
  nohup,
  command,
  ...COMMAND_BUILDERS,
  ...CODE_RUNNERS,
  ...PRIVILEGE_CHANGERS,
  ...SHELL_STATE_BUILTINS,
  exportBuiltin,
  assignmentStatement,
];

const BY_NAME = new Map(PROGRAM_SPECS.map((spec) => [spec.name, spec]));

/** The spec of the program named `name` (as the judge names it: `ls` for `/usr/bin/ls`), if there is one. */
export function programSpec(name: string): ProgramSpec | undefined {
  return BY_NAME.get(name);
}
