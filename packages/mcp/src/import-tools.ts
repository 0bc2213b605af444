import type { Client, Tool } from '@modelcontextprotocol/client';
import type { RegisteredTool, ToolRegistry } from '@toolwright/registry';
import type { ParametersSchema, SafetyTier, ToolDeclaration } from '@toolwright/schema';
import { getToolContext } from '@toolwright/tool';

export interface ImportOptions {
  /** Prefix for the imported names (e.g. `github_`), to keep them apart from local tools. */
  prefix?: string;
  /**
   * The tier each imported tool gets. Remote annotations are hints, never trust: by default every
   * imported tool is side-effecting, whatever it claims; a user who trusts a server says so here.
   */
  tier?: (tool: Tool) => SafetyTier;
  /** Per-call time limit (default 60 s). */
  timeoutMs?: number;
}

/**
 * Registers a remote MCP server's tools in a registry. Calls go through the local executor first
 * (validation against the remote schema, policy, approval, audit, truncation) and then over MCP;
 * the call's AbortSignal cancels the remote request.
 */
export async function importMcpTools(client: Client, registry: ToolRegistry, options: ImportOptions = {}): Promise<RegisteredTool[]> {
  const remote: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    remote.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  const serverName = client.getServerVersion()?.name ?? 'mcp';
  return remote.map((tool) => registry.add(importedTool(client, tool, serverName, options)));
}

function importedTool(client: Client, tool: Tool, serverName: string, options: ImportOptions): RegisteredTool {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, object>;
  const parameters = { ...tool.inputSchema, type: 'object', properties, required: tool.inputSchema.required ?? [] } as unknown as ParametersSchema;
  const declaration: ToolDeclaration = {
    name: `${options.prefix ?? ''}${tool.name}`,
    description: tool.description ?? tool.title ?? `The ${tool.name} tool of the ${serverName} MCP server.`,
    parameters,
    parameterOrder: Object.keys(properties),
    metadata: {
      tier: options.tier?.(tool) ?? 'side-effecting',
      timeoutMs,
      sideEffects: ['net-write'],
      capabilities: ['mcp.call'],
      determinism: 'non-deterministic',
      resources: { timeoutMs },
      parallel: false,
      tags: ['mcp', serverName],
    },
  };
  return {
    declaration,
    invoke: async (args) => {
      const signal = getToolContext()?.signal;
      const result = await client.callTool({ name: tool.name, arguments: { ...args } }, { ...(signal ? { signal } : {}), timeout: timeoutMs });
      const text = Array.isArray(result.content) ? result.content.map(partText).join('\n') : '';
      if (result.isError) throw new Error(text || `the remote tool ${tool.name} failed`);
      return result.structuredContent ?? text;
    },
  };
}

/** A block of a remote result's content as the model reads it: a text block's text, `[image]` and the like for the others. */
function partText(part: unknown): string {
  const { type, text } = (typeof part === 'object' && part !== null ? part : {}) as { type?: unknown; text?: unknown };
  if (type === 'text' && typeof text === 'string') return text;
  return `[${typeof type === 'string' ? type : 'content'}]`;
}
