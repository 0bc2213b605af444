import { count } from '../model-text/output-budget.js';

/**
 * Entries one call's walk looks at, at most (`glob`, `file_list`, the built-in `file_search`): about
 * two seconds of walking, far more than a source tree holds outside ignored folders. A model can
 * make millions of files with a few `cp -r`; past the cap the tool stops and says so.
 */
export const DEFAULT_WALK_CAP = 200_000;

/** The walk cap of an environment (`maxWalkEntries`, else `DEFAULT_WALK_CAP`). */
export function walkCap(env: { maxWalkEntries?: number | undefined }): number {
  return env.maxWalkEntries ?? DEFAULT_WALK_CAP;
}

/** The line a tool adds when its walk stopped at the cap, with how to narrow it. */
export function walkCapNote(visited: number, narrow: string): string {
  return `[stopped after looking at ${count(visited)} entries (the cap on one call); entries further on were not looked at: ${narrow}]`;
}
