import { tool, type FunctionTool } from '@openai/agents';
import type { CallContext, ToolCallResult, ToolExecutor } from '@toolwright/executor';
import { decodeOpenAIStrictArguments, lowerForOpenAIStrict, type ToolFilter } from '@toolwright/registry';

export interface AgentToolsOptions {
  filter?: ToolFilter;
  context?: Omit<CallContext, 'signal' | 'preApproved' | 'argumentDialect'>;
  onResult?: (result: ToolCallResult) => void;
}

/**
 * OpenAI Agents JS function tools from the executor's registry. Parameters are the strict lowering
 * of each declaration (`lowerForOpenAIStrict`), and the model's arguments are decoded back to the
 * tool's own shape (`argumentDialect: 'openai-strict'`) before the executor validates them. Every
 * call runs through the executor; a failed call returns its correction text as the tool output, so
 * the model can fix its next call. `needsApproval` is the executor's gate preview: the Runner turns
 * it into an interruption, and a call approved there runs pre-approved (a policy denial still stands).
 */
export function toAgentTools(executor: ToolExecutor, options: AgentToolsOptions = {}): FunctionTool[] {
  const decodedArgs = (input: unknown) => (typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {});
  return executor.registry.list(options.filter).map((declaration) => {
    const name = declaration.name;
    const gate = (input: unknown) => executor.previewGate(name, decoded(executor, name, decodedArgs(input)), options.context).decision;
    return tool({
      name,
      description: declaration.description,
      parameters: lowerForOpenAIStrict(declaration.parameters) as Parameters<typeof tool>[0]['parameters'] & { type: 'object' },
      strict: true,
      needsApproval: async (_runContext: unknown, input: unknown) => gate(input) === 'ask',
      execute: async (input: unknown, _runContext: unknown, details?: { toolCall?: { callId?: string }; signal?: AbortSignal }) => {
        const args = decodedArgs(input);
        const approvedByHost = gate(input) === 'ask';
        const result = await executor.executeToolCall(
          { id: details?.toolCall?.callId ?? `agents_${Date.now().toString(36)}`, name, arguments: JSON.stringify(args) },
          { ...options.context, argumentDialect: 'openai-strict', ...(details?.signal ? { signal: details.signal } : {}), ...(approvedByHost ? { preApproved: () => true } : {}) },
        );
        options.onResult?.(result);
        return result.content;
      },
    } as Parameters<typeof tool>[0]) as FunctionTool;
  });
}

/** The arguments as the tool will see them (the gate preview judges the decoded call, as the executor will). */
function decoded(executor: ToolExecutor, name: string, args: Record<string, unknown>): Record<string, unknown> {
  const declaration = executor.registry.get(name)?.declaration;
  return declaration ? decodeOpenAIStrictArguments(declaration.parameters, args) : args;
}
