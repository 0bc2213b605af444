import type { Refusal, RefusalClass } from './program-spec.js';
import { REFUSED_PROGRAMS } from '../refused-programs.js';

/** What each class of option does, after "<program> <option>". */
const OPTION_WORDING: Record<RefusalClass, (refusal: Refusal) => string> = {
  'follows-links': () => 'follows symbolic links, which could read outside the workspace',
  'writes-files': () => 'writes files of its own; write files with file_write',
  'deletes-files': () => 'deletes files; list the files and act on them with other tools',
  'runs-programs': () => 'runs other programs, which cannot be judged before they run',
  'builds-commands': () => 'builds a command line from its value, which cannot be judged before it runs',
  'reads-name-list': () => 'reads file names from a file, which cannot be judged; name the files in the command',
  'makes-names': () => 'makes backup files whose names were never judged',
  'sets-clock': () => 'sets the system clock',
  'loose-mode': () => "gives a mode with a set-ID bit or the group's or others' write bit, which the sandbox refuses; leave it out or use a mode such as 755",
  'sets-variables': () => 'sets shell variables',
  'sets-environment': () => 'sets environment variables for the command, which is not allowed',
  'drops-environment': () => "removes the environment that keeps configuration neutral (git's overrides, the private HOME)",
  'moves-elsewhere': () => 'runs the command in another directory, which is not judged',
  'chooses-repository': () => 'is not allowed: options before the subcommand choose the configuration, repository or programs git uses',
  'changes-repository': () => 'changes the repository; only listing forms are allowed',
  'not-printing': () => "is not allowed: only sed's printing form is allowed (sed -n '10,20p' file); use file_edit to change files",
  'unlisted-option': (refusal) => `is not allowed here; ${refusal.hint ?? 'use it only with its plain options'}`,
  never: () => 'is never allowed: it runs arbitrary code or changes privileges',
  'reruns-through-shell': () => 're-runs a command through a shell',
  'runs-before-config-check': () => 'runs before it in the same command line',
  'makes-hard-links': () =>
    'makes hard links, which the sandbox refuses: a second name for a file stays writable and readable when the first is protected or hidden later; copy the file instead',
  'makes-links-beside': ({ guarded }) =>
    `copies or makes symbolic links, which ${guarded !== undefined ? `'${guarded}'` : 'another command'} in the same line would go through after the line was judged; run it in a call of its own`,
};

/** What a refused program is, with no option named. */
const PROGRAM_WORDING: Partial<Record<RefusalClass, (refusal: Refusal) => string>> = {
  // What the program would really do (`'read' is never allowed: it sets shell variables from its input`).
  never: ({ program }) =>
    `'${program}' is ${program === 'export' ? 'not' : 'never'} allowed: it ${REFUSED_PROGRAMS.get(program) ?? 'runs arbitrary code or changes privileges'}`,
  'builds-commands': ({ program }) =>
    `${program} is not allowed: it builds commands from its input, which cannot be judged before they run; run the command on the listed files directly`,
  'reruns-through-shell': ({ program }) => `${program} is not allowed: it re-runs a command through a shell`,
  'changes-repository': ({ program }) => `only listing forms of ${program} are allowed (git branch, git branch -a, git branch --list PATTERN)`,
  'not-printing': () => "only sed's printing form is allowed (sed -n '10,20p' file); use file_edit to change files",
  'makes-links-beside': ({ program, guarded }) =>
    `'${program}' makes or moves symbolic links, which ${guarded !== undefined ? `'${guarded}'` : 'another command'} in the same line would go through after the line was judged; run it in a call of its own`,
  'runs-before-config-check': ({ program, guarded = 'git' }) =>
    `'${program}' runs before ${guarded} in the same command line, and ${guarded}'s configuration is checked before the line runs; run ${guarded} in a call of its own`,
};

/**
 * The one wording of every refusal the program rules make, for the model to read.
 * @example `{ program: 'cp', option: '-L', class: 'follows-links' }` → `cp -L follows symbolic links, which could read outside the workspace`
 * @example `{ program: 'ls', option: '-L', written: '-laL', ... }` → `ls -laL (-L) follows symbolic links, ...`
 */
export function describeRefusal(refusal: Refusal): string {
  if (refusal.option === undefined) {
    const program = PROGRAM_WORDING[refusal.class];
    return program ? program(refusal) : `${refusal.program} ${OPTION_WORDING[refusal.class](refusal)}`;
  }
  const spelled = refusal.written === undefined ? refusal.option : `${refusal.written} (${refusal.option})`;
  return `${refusal.program} ${spelled} ${OPTION_WORDING[refusal.class](refusal)}`;
}
