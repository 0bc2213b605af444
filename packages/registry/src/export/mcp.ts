import type { JsonSchema, ToolDeclaration } from '@toolwright/schema';

/** An entry of MCP's `tools/list` result. */
export interface McpTool {
  name: string;
  /** A human-readable name for host UIs, from the wire name (`file_read` → "File read"). */
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, object>; required: string[]; [keyword: string]: unknown };
  /** The result's schema, an object one (2025-11-25 wants one). */
  outputSchema?: { type: 'object'; properties?: Record<string, object>; required?: string[]; [keyword: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  /** The tool's provider settings that MCP has no field for, under `toolwright/` keys (see {@link MCP_META_KEYS}); absent when it declares none. */
  _meta?: { [key: string]: unknown };
}

/**
 * The `_meta` keys of a `tools/list` entry that carry a tool's provider settings (present only when declared), for a
 * host that passes them on to its model's API: `toolwright/strict` (`false`), `toolwright/defer` (`true`),
 * `toolwright/examples` (argument objects), `toolwright/callers` (`'direct'`, `'programmatic'`).
 */
export const MCP_META_KEYS = {
  strict: 'toolwright/strict',
  defer: 'toolwright/defer',
  examples: 'toolwright/examples',
  callers: 'toolwright/callers',
} as const;

const WRITES = new Set(['fs-write', 'db-write', 'net-write', 'process-spawn']);

/** An entry of a 2026-07-28 `tools/list`: its result's schema may be any JSON Schema (an array's, a string's). */
export type McpModernTool = Omit<McpTool, 'outputSchema'> & { outputSchema?: { [keyword: string]: unknown } };

/**
 * Which protocol revision the entries are for: `legacy` (2025-11-25 and before, the default) wants an object result,
 * so an array or a primitive is wrapped as `{ "result": ... }`; `modern` (2026-07-28) takes any JSON Schema and value.
 */
export interface McpEraOptions {
  era?: 'legacy' | 'modern';
}

/**
 * MCP `tools/list` entries. Annotations come from the metadata: read-only tier → readOnlyHint;
 * a non-read-only tool that writes files, databases or the network, or spawns processes →
 * destructiveHint; pure or deterministic → idempotentHint; any network effect → openWorldHint.
 * `outputSchema` is the result's schema when it is an object (MCP's 2025 revisions require one); any other result
 * but a union of objects (an array, a string, a number, a union of those) is wrapped as `{ "result": ... }`, as
 * `structuredContentOf` sends it. A union with an object member, and no result at all, get none.
 */
export function toMcpTools(declarations: readonly ToolDeclaration[], options?: { era?: 'legacy' }): McpTool[];
export function toMcpTools(declarations: readonly ToolDeclaration[], options: { era: 'modern' }): McpModernTool[];
export function toMcpTools(declarations: readonly ToolDeclaration[], options: McpEraOptions): (McpTool | McpModernTool)[];
export function toMcpTools(declarations: readonly ToolDeclaration[], options: McpEraOptions = {}): (McpTool | McpModernTool)[] {
  return declarations.map((d) => {
    const readOnly = d.metadata.tier === 'read-only';
    const effects = d.metadata.sideEffects;
    // A tool that may answer with content blocks cannot promise structured content of a schema: it declares none.
    const output = d.returnsContent ? undefined : options.era === 'modern' && d.returns && wrapsResult(d.returns) ? { ...d.returns } : objectOutput(d.returns);
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
      ...metaOf(d),
    };
  });
}

function metaOf({ metadata }: ToolDeclaration): { _meta?: Record<string, unknown> } {
  const meta: Record<string, unknown> = {};
  if (metadata.strict === false) meta[MCP_META_KEYS.strict] = false;
  if (metadata.defer) meta[MCP_META_KEYS.defer] = true;
  if (metadata.examples) meta[MCP_META_KEYS.examples] = metadata.examples;
  if (metadata.callers) meta[MCP_META_KEYS.callers] = metadata.callers;
  return Object.keys(meta).length > 0 ? { _meta: meta } : {};
}

function objectOutput(returns: JsonSchema | undefined): McpTool['outputSchema'] {
  if (!returns) return undefined;
  if (returns.type === 'object') return { ...returns, type: 'object' };
  // A named result type is a $ref into the schema's own $defs: inline the root, keep the $defs.
  const target = returns.$ref && returns.$defs ? returns.$defs[returns.$ref.replace('#/$defs/', '')] : undefined;
  if (target?.type === 'object')
    return { ...target, ...(returns.description ? { description: returns.description } : {}), type: 'object', $defs: returns.$defs };
  if (!wrapsResult(returns)) return undefined;
  const { $defs, ...result } = returns;
  return { type: 'object', properties: { result }, required: ['result'], additionalProperties: false, ...($defs ? { $defs } : {}) };
}

/** Whether a result is sent wrapped as `{ "result": ... }`: one that is no object, nor a union with an object in it, nor nothing. */
function wrapsResult(returns: JsonSchema): boolean {
  const target = returns.$ref && returns.$defs ? returns.$defs[returns.$ref.replace('#/$defs/', '')] : returns;
  if (!target || target.type === 'object' || target.type === 'null') return false;
  if (Array.isArray(target.type) && target.type.includes('object')) return false;
  const members = target.anyOf ?? [];
  if (members.some((member) => member.type === 'object' || member.$ref !== undefined || member.properties !== undefined)) return false;
  return target.type !== undefined || members.length > 0 || target.const !== undefined || target.enum !== undefined;
}

/**
 * A result as MCP's `structuredContent` (for a tool that has an `outputSchema`): an object as it is, anything else
 * wrapped as `{ "result": ... }` (as it is, for `{ era: 'modern' }`); undefined for a tool without one.
 */
export function structuredContentOf(declaration: ToolDeclaration, output: unknown, options: McpEraOptions = {}): unknown {
  if (!declaration.returns || !objectOutput(declaration.returns)) return undefined;
  if (wrapsResult(declaration.returns)) return output === undefined ? undefined : options.era === 'modern' ? output : { result: output };
  return typeof output === 'object' && output !== null && !Array.isArray(output) ? output : undefined;
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
