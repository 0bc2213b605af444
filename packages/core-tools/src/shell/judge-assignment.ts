/**
 * Variables a command may never set: they change what runs, where, or which configuration or code a
 * program loads (PATH and every *PATH such as GCONV_PATH or RIPGREP_CONFIG_PATH, LD_PRELOAD,
 * BASH_ENV, IFS, *_OPTIONS, *CONFIG*, *RC, editors and pagers, language runtimes' variables, ...).
 */
const UNSAFE_VARIABLE =
  /^(?:PATH|HOME|IFS|ENV|SHELL|TMPDIR|OLDPWD|PWD|SHLVL|CDPATH|GLOBIGNORE|PROMPT_COMMAND|PS[0-4]|BROWSER|MAGIC|NLSPATH|HOSTALIASES|LOCPATH|RESOLV_.*|BASH.*|SHELLOPTS|LD_.*|DYLD_.*|GLIBC_.*|MALLOC_.*|GCONV_.*|GIT_.*|NODE_.*|NPM_.*|PYTHON.*|PERL.*|RUBY.*|JAVA_.*|_JAVA_.*|LESS.*|GREP_.*|TAR_.*|SSH_.*|GNUPG.*|GPG_.*|XDG_.*|TERMINFO.*|.*PATH|.*_OPTIONS|.*_OPTS|.*OPT|.*CONFIG.*|.*_HOME|.*RC|.*EDITOR|.*PAGER|.*_PROXY)$/i;

/** `NAME=value` with a safe upper-case name and a literal value. */
export function judgeAssignment(name: string, value: string | undefined): string | undefined {
  if (!/^[A-Z][A-Z0-9_]*$/.test(name)) return `only upper-case variable names may be set, not '${name}'`;
  if (UNSAFE_VARIABLE.test(name)) return `the variable ${name} cannot be set: it changes what commands run`;
  if (value !== undefined && /[\0\n]/.test(value)) return `the value of ${name} contains a NUL or newline`;
  return undefined;
}
