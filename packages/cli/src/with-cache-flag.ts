import type { ExecutorOptions } from '@toolwright/executor';

/**
 * The executor options with `--cache` applied: the output cache with its defaults (see `OutputCacheOptions`), unless
 * the configuration already sets one.
 */
export function withCacheFlag(options: Partial<ExecutorOptions>, cache: boolean | undefined): Partial<ExecutorOptions> {
  return cache && !options.cache ? { ...options, cache: {} } : options;
}
