import type { ToolMetadata } from '@toolwright/schema';

/** The side effects a re-run may have: reading. Anything that writes or spawns changes the world when replayed. */
const READ_EFFECTS: ReadonlySet<string> = new Set(['none', 'fs-read', 'net-read', 'db-read']);

/**
 * Why `replay --run` must not re-run a tool's calls, or `undefined` when it may: only a `read-only` tool that
 * declares no write or spawn side effect and is `pure` or `deterministic` is re-run. Determinism alone is not enough:
 * `file_write` is deterministic, and re-running it would put back content a person has since changed.
 */
export function replayRefusal(metadata: Pick<ToolMetadata, 'tier' | 'sideEffects' | 'determinism'>): string | undefined {
  if (metadata.tier !== 'read-only') return `changes the world (its tier is '${metadata.tier}'; only read-only tools are re-run)`;
  const effect = metadata.sideEffects.find((sideEffect) => !READ_EFFECTS.has(sideEffect));
  if (effect !== undefined) return `changes the world (it declares the side effect '${effect}'; only reads are re-run)`;
  if (metadata.determinism !== 'pure' && metadata.determinism !== 'deterministic')
    return `its determinism is '${metadata.determinism}' (only pure and deterministic tools are replayed)`;
  return undefined;
}
