import { flags, refuse, valued, type ProgramSpec, type Refusal } from './program-spec.js';

const QUIET = ['-n', '--quiet', '--silent'];
const EXTENDED = ['-E', '-r', '--regexp-extended'];
const EXPRESSION = ['-e', '--expression'];
const PLAIN_USE = "only sed's printing form runs (sed -n '10,20p' file); use file_edit to change files";

/** A script that only prints lines: `10,20p`, `$p`, `/re/p`, `/a/,/b/p`. */
const PRINT_ONLY = /^(?:(?:\d+|\$|\/(?:[^/\\]|\\.)*\/)(?:,(?:\d+|\$|\/(?:[^/\\]|\\.)*\/))?)?p$/;

/** Only the printing form runs: `-n` with scripts that print lines, nothing that writes or runs. */
function judgeSed(args: readonly string[]): Refusal | undefined {
  const scripts: string[] = [];
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (QUIET.includes(arg)) quiet = true;
    else if (EXTENDED.includes(arg)) continue;
    else if (EXPRESSION.includes(arg)) scripts.push(args[++i] ?? '');
    else if (arg.startsWith('-')) return { program: 'sed', class: 'unlisted-option', option: arg, hint: PLAIN_USE };
    else if (scripts.length === 0) scripts.push(arg);
  }
  return quiet && scripts.length > 0 && scripts.every((script) => PRINT_ONLY.test(script.trim())) ? undefined : { program: 'sed', class: 'not-printing' };
}

/**
 * GNU sed, in its printing form only: the options are taken as spelled here (no clusters, no glued
 * scripts) and every script must print lines and nothing else.
 */
export const sed: ProgramSpec = {
  name: 'sed',
  role: 'reader',
  syntax: 'listed',
  defaultAllow: true,
  options: [
    ...flags(QUIET.join(' '), EXTENDED.join(' ')),
    ...valued(EXPRESSION.join(' ')),
    refuse('writes-files', '-i --in-place', { value: 'optional' }),
    refuse('follows-links', '--follow-symlinks'),
  ],
  plainUse: PLAIN_USE,
  judge: judgeSed,
  usage: { lead: ['-n'], operands: ['1,2p', 'notes.txt'] },
};
