const SHELL = 'starts another shell, whose commands cannot be judged before they run';
const AS_ANOTHER_USER = 'runs a command as another user';
const SETS_VARIABLES_WITH_ATTRIBUTES = 'sets shell variables (with attributes) that the judge does not follow; plain NAME=value needs the assignment permit';
const OPTIONS = "changes the shell's options, which the judge relies on (for example, that paths are resolved physically)";
const HISTORY = "re-runs or edits commands from the shell's history";
const NAMESPACES = 'runs a command in other namespaces';

/**
 * Programs and builtins refused whatever the allowlist says, each with what it would really do (the
 * model reads `'read' is never allowed: it sets shell variables from its input ...`). Every name in
 * `NEVER` (program-rules.ts) has its reason here; the others are builtins that change the shell's
 * own state in ways the judge does not follow.
 */
export const REFUSED_PROGRAMS: ReadonlyMap<string, string> = new Map([
  ['sudo', AS_ANOTHER_USER],
  ['su', AS_ANOTHER_USER],
  ['doas', AS_ANOTHER_USER],
  ['pkexec', AS_ANOTHER_USER],
  ['eval', 'runs its arguments as a new command line, which cannot be judged before it runs'],
  ['exec', "replaces the shell with another program, or changes the shell's own file descriptors"],
  ['source', "runs a file's contents as shell commands, which cannot be judged before they run"],
  ['.', "runs a file's contents as shell commands, which cannot be judged before they run"],
  ['bash', SHELL],
  ['sh', SHELL],
  ['zsh', SHELL],
  ['dash', SHELL],
  ['ksh', SHELL],
  ['fish', SHELL],
  ['csh', SHELL],
  ['tcsh', SHELL],
  ['builtin', 'runs a shell builtin by name, bypassing the judgement of that builtin'],
  ['trap', 'sets commands the shell runs later, on a signal or at exit'],
  ['alias', 'defines aliases, which change what later command names run'],
  ['unalias', 'removes aliases, which changes what later command names run'],
  ['set', OPTIONS],
  ['shopt', OPTIONS],
  ['export', 'sets environment variables for later commands (only NAME=value forms, with the assignment permit)'],
  ['declare', SETS_VARIABLES_WITH_ATTRIBUTES],
  ['typeset', SETS_VARIABLES_WITH_ATTRIBUTES],
  ['readonly', SETS_VARIABLES_WITH_ATTRIBUTES],
  ['local', SETS_VARIABLES_WITH_ATTRIBUTES],
  ['enable', 'turns shell builtins on or off, which changes what later command names run'],
  ['chroot', 'runs a command under another root directory'],
  ['setsid', 'runs a command in a new session, outside the process group that is stopped at the timeout'],
  ['unshare', NAMESPACES],
  ['nsenter', NAMESPACES],
  ['read', 'sets shell variables from its input (and stdin is closed here); write the values in the command'],
  ['mapfile', 'sets a shell array from its input (and stdin is closed here)'],
  ['readarray', 'sets a shell array from its input (and stdin is closed here)'],
  ['getopts', 'sets shell variables from the options it parses'],
  ['let', 'evaluates arithmetic that sets shell variables'],
  ['hash', 'changes where the shell finds programs'],
  ['ulimit', "changes the shell's resource limits"],
  ['umask', 'changes the permissions of every file created afterwards'],
  ['kill', 'sends signals to processes, which need not belong to this command'],
  ['disown', 'detaches jobs from the shell, so they would outlive the command'],
  ['wait', 'waits for background jobs, and there are none (& is not allowed; use background: true)'],
  ['fc', HISTORY],
  ['history', HISTORY],
  ['complete', 'configures completion, which runs functions and commands when it is used'],
  ['compgen', 'runs commands and functions to generate completions (-C, -F)'],
  ['coproc', 'starts a command in the background, connected to the shell by pipes'],
  ['pushd', "changes the working directory through the shell's directory stack, which the judge does not follow; use cd"],
  ['popd', "changes the working directory through the shell's directory stack, which the judge does not follow; use cd"],
  ['suspend', 'stops the shell until a signal continues it'],
]);
