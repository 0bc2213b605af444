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
