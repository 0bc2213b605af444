import type { RegisteredTool, ToolRegistry } from '@toolwright/registry';
import type { PipelineStep } from '../call-state.js';
import type { ToolError } from '../tool-error.js';

export type LookupResult = { ok: true; tool: RegisteredTool } | { ok: false; error: Extract<ToolError, { code: 'unknown_tool' }> };

/** Finds a tool by wire name; an unknown name answers with the nearest valid names. */
export function lookupTool(registry: ToolRegistry, name: string): LookupResult {
  const tool = registry.get(name);
  if (tool) return { ok: true, tool };
  return { ok: false, error: { code: 'unknown_tool', tool: name, suggestions: nearestNames(name, registry.names()) } };
}

/** Step: the tool the call names, or `unknown_tool` with the nearest names. */
export function lookupStep(registry: ToolRegistry): PipelineStep {
  return {
    stage: 'lookup',
    run(state) {
      const found = lookupTool(registry, state.call.name);
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
