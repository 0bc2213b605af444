/**
 * The directory a `cd` moves to, from the words after `cd`, or why it is refused. Both backends run
 * bash with `-P` (physical): `cd DIR` hands DIR to the kernel, which follows each symbolic link
 * before the `..` after it, exactly as the judge locates it (`kernelPath`). `cd -L` would apply
 * `..` to the path as written instead, `cd` alone goes to HOME and `cd -` to OLDPWD: each would put
 * the shell somewhere the judge did not judge from, so each is refused.
 * @example cdTarget(['--', 'src']) → { ok: true, target: 'src' }; cdTarget(['-L', 'x']) → refused
 */
export function cdTarget(args: readonly string[]): { ok: true; target: string } | { ok: false; reason: string } {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    if (/^-P+$/.test(arg)) continue;
    if (arg.includes('L'))
      return {
        ok: false,
        reason: `cd ${arg} is not allowed: the shell resolves directories physically (a symbolic link before the '..' after it), as they are judged; use cd DIR`,
      };
    return { ok: false, reason: `cd ${arg} is not allowed; use cd DIR` };
  }
  const operands = args.slice(i);
  if (operands.length !== 1)
    return {
      ok: false,
      reason: `cd needs exactly one directory inside the workspace${operands.length === 0 ? " ('cd' alone goes to the home directory)" : ''}`,
    };
  const target = operands[0]!;
  if (target === '-') return { ok: false, reason: "cd needs exactly one directory inside the workspace ('cd -' goes back to $OLDPWD); name the directory" };
  if (target === '') return { ok: false, reason: "cd needs exactly one directory inside the workspace, not ''" };
  return { ok: true, target };
}
