import type { RegisteredTool, ToolRegistry } from '@toolwright/registry';
import type { PipelineStep } from '../call-state.js';
import type { OfferedTools } from '../offered-tools.js';
import type { ToolError } from '../tool-error.js';

export type LookupResult = { ok: true; tool: RegisteredTool } | { ok: false; error: Extract<ToolError, { code: 'unknown_tool' | 'tool_not_loaded' }> };

/**
 * Finds a tool by wire name; an unknown name answers with the nearest valid names. With the tools the model was
 * offered (`offered`), a registered tool outside them is unknown too (the nearest names are offered ones), unless it
 * is deferred: `tool_not_loaded` names the tool that finds it.
 */
export function lookupTool(registry: ToolRegistry, name: string, offered?: OfferedTools): LookupResult {
  const tool = registry.get(name);
  if (tool && (!offered || offered.offers(name))) return { ok: true, tool };
  if (tool && offered?.defers(name)) return { ok: false, error: { code: 'tool_not_loaded', tool: name, searchTool: offered.searchTool } };
  const names = offered ? registry.names().filter((candidate) => offered.offers(candidate)) : registry.names();
  return { ok: false, error: { code: 'unknown_tool', tool: name, suggestions: nearestNames(name, names) } };
}

/** Step: the tool the call names (among those offered, when the call's context says which), or why there is none. */
export function lookupStep(registry: ToolRegistry): PipelineStep {
  return {
    stage: 'lookup',
    run(state) {
      const found = lookupTool(registry, state.call.name, state.context.offeredTools);
      if (!found.ok) return state.audit.reject(found.error, { tool: state.call.name, args: state.call.arguments });
      state.tool = found.tool;
      return undefined;
    },
  };
}

/** Up to three names within an edit distance that scales with the length, closest first. */
export function nearestNames(name: string, candidates: readonly string[], limit = 3): string[] {
  const wanted = name.toLowerCase().replace(/[-\s]/g, '_');
  const threshold = Math.max(2, Math.floor(wanted.length / 3));
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(wanted, candidate.toLowerCase()) }))
    .filter(({ candidate, distance }) => distance <= threshold || candidate.includes(wanted) || (wanted.length >= 4 && wanted.includes(candidate)))
    .sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function editDistance(a: string, b: string): number {
  if (a.length > 256 || b.length > 256) return Math.abs(a.length - b.length) + 256;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
