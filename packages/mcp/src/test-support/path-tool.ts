import type { ToolDeclaration } from '@toolwright/schema';

/** A tool of one `path` argument returning text, at `tier`: what the approval tests run. */
export function pathToolDeclaration(name: string, tier: ToolDeclaration['metadata']['tier']): ToolDeclaration {
  return {
    name,
    description: `The ${name} tool.`,
    parameterOrder: ['path'],
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    returns: { type: 'string' },
    metadata: {
      tier,
      timeoutMs: 5000,
      sideEffects: ['fs-write'],
      capabilities: [],
      determinism: 'maybe',
      resources: { timeoutMs: 5000 },
      parallel: false,
      tags: [],
    },
  };
}
