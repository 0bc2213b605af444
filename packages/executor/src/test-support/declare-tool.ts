import { attachToolDeclaration, type JsonSchema, type ToolDeclaration, type ToolMetadata } from '@toolwright/schema';

/** Builds a declaration the way the transformer would, for tests that do not compile TypeScript. */
export function declaration(
  name: string,
  properties: Record<string, JsonSchema>,
  options: {
    required?: string[];
    metadata?: Partial<ToolMetadata>;
    returns?: JsonSchema;
    description?: string;
  } = {},
): ToolDeclaration {
  const tier = options.metadata?.tier ?? 'read-only';
  return {
    name,
    description: options.description ?? `The ${name} test tool.`,
    parameters: { type: 'object', properties, required: options.required ?? Object.keys(properties), additionalProperties: false },
    parameterOrder: Object.keys(properties),
    metadata: {
      tier,
      timeoutMs: 5_000,
      sideEffects: [],
      capabilities: [],
      determinism: 'maybe',
      resources: { timeoutMs: 5_000 },
      parallel: tier === 'read-only',
      tags: [],
      ...options.metadata,
    },
    ...(options.returns ? { returns: options.returns } : {}),
  };
}

/** Attaches a test declaration to a function, as compiled tools carry theirs. */
export function defineTool<F extends (...args: never[]) => unknown>(fn: F, decl: ToolDeclaration): F {
  return attachToolDeclaration(fn, decl);
}
