import type { ConfigFlags } from '../config/cli-settings.js';

/** The flags that lay over toolwright.config.json (see config/cli-settings.ts). */
export function configFlags(values: Record<string, unknown>): ConfigFlags & { project?: string } {
  const flags: ConfigFlags & { project?: string } = {};
  for (const key of ['config', 'workspace', 'policy', 'audit', 'project'] as const) {
    if (typeof values[key] === 'string') flags[key] = values[key];
  }
  return flags;
}
