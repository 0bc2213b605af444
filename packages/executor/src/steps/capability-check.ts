import type { ToolDeclaration } from '@toolwright/schema';
import type { CallContext, ToolExecutor } from '../tool-executor.js';

export interface CapabilityOutcome {
  allowed: boolean;
  granted: readonly string[];
  missing: string[];
}

/**
 * Step 6: the tool's required capabilities against those granted to the caller (the call's own
 * grant, else the executor's, else everything). `*` grants all; `fs.*` grants every `fs.` capability.
 */
export function checkGrantedCapabilities(executor: ToolExecutor, declaration: ToolDeclaration, context: CallContext): CapabilityOutcome {
  const granted = context.capabilities ?? executor.options.capabilities ?? ['*'];
  const required = declaration.metadata.capabilities;
  if (required.length === 0) return { allowed: true, granted, missing: [] };
  const check = executor.options.checkCapabilities ?? defaultCapabilityCheck;
  const { allowed, missing } = check(required, granted);
  return { allowed, granted, missing };
}

export function defaultCapabilityCheck(required: readonly string[], granted: readonly string[]): { allowed: boolean; missing: string[] } {
  const covers = (grant: string, need: string) => grant === '*' || grant === need || (grant.endsWith('.*') && need.startsWith(grant.slice(0, -1)));
  const missing = required.filter((need) => !granted.some((grant) => covers(grant, need)));
  return { allowed: missing.length === 0, missing };
}
