/** Set-user-ID, set-group-ID, and the group's and the others' write bits: what the sandbox never lets a command make. */
export const LOOSE_MODE_BITS = 0o6022;

/** Each class's bits: its read, write and execute bits and its special bit (u: set-user-ID, g: set-group-ID, o: sticky). */
const CLASS_BITS = { u: 0o4700, g: 0o2070, o: 0o1007, a: 0o7777 } as const;
const PERMISSION_BITS = { r: 0o444, w: 0o222, x: 0o111, X: 0o111, s: 0o6000, t: 0o1000 } as const;

/**
 * The mode GNU `mkdir -m MODE` (and `mkfifo`, `install -m`) gives, from `0777` as coreutils' `mode_adjust` starts, or
 * undefined when `mode` is not one the judge can read (octal, or symbolic clauses `[ugoa]*([-+=]([rwxXst]*|[ugo]))+`).
 * A clause naming no class affects the bits the process's umask leaves (unknown to the judge, so the reading errs
 * towards loose): it adds to every class, and takes away only set-ID and sticky bits (`-w` under `umask 022` leaves
 * the group's and others' write bits of the `0777` it starts from).
 */
export function modeGiven(mode: string): number | undefined {
  if (/^[0-7]+$/.test(mode)) return parseInt(mode, 8);
  let result = 0o777;
  for (const clause of mode.split(',')) {
    const match = /^([ugoa]*)((?:[-+=](?:[ugo]|[rwxXst]*))+)$/.exec(clause);
    if (!match) return undefined;
    const classless = match[1] === '';
    const mask = [...(classless ? 'a' : match[1]!)].reduce((bits, c) => bits | CLASS_BITS[c as keyof typeof CLASS_BITS], 0);
    /** What `-` and `=` may take away: a class-less clause's only surely the special bits (the umask cannot mask them). */
    const removable = classless ? 0o7000 : mask;
    for (const [, op, perms] of match[2]!.matchAll(/([-+=])([ugo]|[rwxXst]*)/g)) {
      const bits = /^[ugo]$/.test(perms!)
        ? copied(result, perms as 'u' | 'g' | 'o')
        : [...perms!].reduce((b, p) => b | PERMISSION_BITS[p as keyof typeof PERMISSION_BITS], 0);
      const affected = bits & mask;
      if (op === '+') result |= affected;
      // A copy (`a-u`) takes away what that class has by then, which the reading may overstate: nothing is taken.
      else if (op === '-') result &= /^[ugo]$/.test(perms!) ? ~0 : ~(affected & removable);
      else result = (result & ~(removable & 0o777)) | affected;
    }
  }
  return result;
}

/** `g=u`: the class's read, write and execute bits, as bits of every class. */
function copied(mode: number, from: 'u' | 'g' | 'o'): number {
  const shift = { u: 6, g: 3, o: 0 }[from];
  return ((mode >> shift) & 7) * 0o111;
}
