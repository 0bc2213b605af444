/** Keys and indexes from the root to a value → `$.options.items[0]["a b"]`. */
export function formatJsonPath(keys: readonly (string | number)[]): string {
  let path = '$';
  for (const key of keys) path += typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  return path;
}

/** A JSON path as the model reads it in a message: `$` → the arguments, `$.a.b` → 'a.b', `$["a b"]` → '["a b"]'. */
export function describeJsonPath(path: string): string {
  if (path === '$') return 'the arguments';
  return `'${path.startsWith('$.') ? path.slice(2) : path.slice(1)}'`;
}

/**
 * The keys and indexes a path of `formatJsonPath` names, in order: its inverse.
 * @example jsonPathKeys('$.options.items[0]["a b"]') // ['options', 'items', 0, 'a b']
 */
export function jsonPathKeys(path: string): (string | number)[] {
  if (!path.startsWith('$')) throw new SyntaxError(`not a JSON path: ${JSON.stringify(path)}`);
  const keys: (string | number)[] = [];
  let at = 1;
  while (at < path.length) {
    const rest = path.slice(at);
    const step = /^\.([A-Za-z_$][\w$]*)/.exec(rest) ?? /^\[(\d+)\]/.exec(rest) ?? /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (!step) throw new SyntaxError(`not a JSON path: ${JSON.stringify(path)} (at ${at})`);
    keys.push(step[0].startsWith('.') ? step[1]! : step[1]!.startsWith('"') ? (JSON.parse(step[1]!) as string) : Number(step[1]));
    at += step[0].length;
  }
  return keys;
}
