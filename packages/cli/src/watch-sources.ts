import fs from 'node:fs';
import path from 'node:path';

/**
 * The line `emit --watch` prints when a change starts a new emit: an editor's problem matcher reads it
 * as the start of a run (its diagnostics replace the last run's), and the summary or error count as its end.
 */
export const EMITTING_AFTER_CHANGE = 'File change detected; emitting again...';

/** Quiet period after a file event before acting: editors write a file in several events. */
const SETTLE_MS = 15;

/**
 * Watches a project's TypeScript files and tsconfigs below `rootDir` (node_modules left out) and calls
 * `onSettled` once events stop for a moment, with the files touched (absolute; empty when an event
 * named none) and when the first event came.
 */
export function watchSources(rootDir: string, onSettled: (files: string[], firstEventAt: number) => void): { close(): void } {
  let timer: NodeJS.Timeout | undefined;
  let firstEventAt = 0;
  let unnamed = false;
  const touched = new Set<string>();
  const watcher = fs.watch(rootDir, { recursive: true }, (_event, name) => {
    const file = name ? String(name) : '';
    if (file && (!/\.(c|m)?tsx?$|(^|[\\/])tsconfig[^\\/]*\.json$/.test(file) || file.split(/[\\/]/).includes('node_modules'))) return;
    firstEventAt ||= performance.now();
    if (file) touched.add(path.join(rootDir, file));
    else unnamed = true;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const started = firstEventAt;
      const files = unnamed ? [] : [...touched];
      firstEventAt = 0;
      unnamed = false;
      touched.clear();
      onSettled(files, started);
    }, SETTLE_MS);
  });
  return {
    close: () => {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
