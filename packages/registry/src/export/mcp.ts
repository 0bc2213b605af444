import type { JsonSchema, ToolDeclaration } from '@toolwright/schema';

/** An entry of MCP's `tools/list` result. */
export interface McpTool {
  name: string;
  /** A human-readable name for host UIs, from the wire name (`file_read` → "File read"). */
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, object>; required: string[]; [keyword: string]: unknown };
  outputSchema?: { type: 'object'; properties?: Record<string, object>; required?: string[]; [keyword: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

const WRITES = new Set(['fs-write', 'db-write', 'net-write', 'process-spawn']);

/**
 * MCP `tools/list` entries. Annotations come from the metadata: read-only tier → readOnlyHint;
 * a non-read-only tool that writes files, databases or the network, or spawns processes →
 * destructiveHint; pure or deterministic → idempotentHint; any network effect → openWorldHint.
 * `outputSchema` is given only when the result is an object (MCP requires one).
 */
export function toMcpTools(declarations: readonly ToolDeclaration[]): McpTool[] {
  return declarations.map((d) => {
    const readOnly = d.metadata.tier === 'read-only';
    const effects = d.metadata.sideEffects;
    const output = objectOutput(d.returns);
    const title = titleOf(d.name);
    return {
      name: d.name,
      title,
      description: d.description,
      inputSchema: { ...d.parameters },
      ...(output ? { outputSchema: output } : {}),
      annotations: {
        title,
        readOnlyHint: readOnly,
        destructiveHint: !readOnly && (d.metadata.tier === 'privileged' || effects.some((e) => WRITES.has(e))),
        idempotentHint: d.metadata.determinism === 'pure' || d.metadata.determinism === 'deterministic',
        openWorldHint: effects.some((e) => e === 'net-read' || e === 'net-write'),
      },
    };
  });
}

function objectOutput(returns: JsonSchema | undefined): McpTool['outputSchema'] {
  if (!returns) return undefined;
  if (returns.type === 'object') return { ...returns, type: 'object' };
  // A named result type is a $ref into the schema's own $defs: inline the root, keep the $defs.
  const target = returns.$ref && returns.$defs ? returns.$defs[returns.$ref.replace('#/$defs/', '')] : undefined;
  if (target?.type !== 'object') return undefined;
  return { ...target, ...(returns.description ? { description: returns.description } : {}), type: 'object', $defs: returns.$defs };
}

/** `file_read` → "File read", `getForecast` → "Get forecast". */
export function titleOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
