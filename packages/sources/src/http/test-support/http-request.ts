import type { ToolDeclaration } from '@toolwright/schema';
import type { ToolCallContext } from '@toolwright/tool';
import type { HttpToolOptions } from '../../source-options.js';
import type { SourceRequest } from '../../source-request.js';

/** The declaration of an HTTP tool taking `parameters` in that order, as the transformer would emit it. */
export function httpDeclaration(name: string, parameters: string[], timeoutMs = 10_000): ToolDeclaration {
  return {
    name,
    description: `The ${name} endpoint.`,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(parameters.map((parameter) => [parameter, {}])),
      required: [],
      additionalProperties: false,
    },
    parameterOrder: parameters,
    metadata: {
      tier: 'read-only',
      timeoutMs,
      sideEffects: [],
      capabilities: [],
      determinism: 'maybe',
      resources: { timeoutMs },
      parallel: false,
      tags: [],
    },
  };
}

/** One call of an HTTP tool as `source.http` hands it to `runHttp`. */
export function httpRequest(
  url: string,
  options: HttpToolOptions,
  call: { input?: Record<string, unknown>; signal?: AbortSignal; capabilities?: readonly string[]; timeoutMs?: number } = {},
): SourceRequest<string, HttpToolOptions> {
  const declaration = httpDeclaration('remote_tool', Object.keys(call.input ?? {}), call.timeoutMs);
  const signal = call.signal ?? AbortSignal.timeout(declaration.metadata.timeoutMs);
  // The runner reads only the grant; a partial context stands in for the executor's.
  const partial: Partial<ToolCallContext> = { callId: 'c1', toolName: 'remote_tool', signal, progress: () => {}, capabilities: call.capabilities };
  const context = call.capabilities === undefined ? undefined : (partial as ToolCallContext);
  return { tool: 'remote_tool', target: url, options, declaration, input: call.input ?? {}, signal, context };
}
