import { createTwoFilesPatch } from 'diff';

/**
 * A unified diff of two outputs as indented JSON with sorted keys (the form their hashes are taken of,
 * spread over lines), labelled `recorded` and `replayed`; `diff` makes it.
 */
export function outputDiff(recorded: unknown, replayed: unknown, label: string): string {
  const patch = createTwoFilesPatch(`${label} (recorded)`, `${label} (replayed)`, `${sortedJson(recorded)}\n`, `${sortedJson(replayed)}\n`, '', '', {
    context: 3,
  });
  // The first line (`Index:`/`===`) of the patch says nothing the labels do not.
  return patch.replace(/^={3,}\n/m, '').trimEnd();
}

/** Indented JSON with object keys sorted at every level; what JSON cannot hold is left to `JSON.stringify`. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(
    value === undefined ? null : value,
    (_key, current: unknown) => {
      if (typeof current !== 'object' || current === null || Array.isArray(current)) return current;
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(current).sort()) sorted[key] = (current as Record<string, unknown>)[key];
      return sorted;
    },
    2,
  );
}
