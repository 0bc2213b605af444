import { describe, expect, it } from 'vitest';
import { formatJsonPath, jsonPathKeys } from './json-path.js';

describe(jsonPathKeys, () => {
  it.for<(string | number)[]>([[], ['options', 'items', 0], ['a b', '0', 7, '$id'], ['quote"and\\slash', '__proto__', 'ünï'], [0, 1, 'x']])(
    'reads back the keys formatJsonPath wrote: %j',
    (keys) => {
      expect(jsonPathKeys(formatJsonPath(keys))).toEqual(keys);
    },
  );

  it.for(['', 'options', '$.', '$[x]', '$["open'])('refuses %j, which formatJsonPath never writes', (path) => {
    expect(() => jsonPathKeys(path)).toThrow(SyntaxError);
  });
});
