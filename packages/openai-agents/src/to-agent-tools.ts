import { tool, type FunctionTool } from '@openai/agents';
import type { CallContext, ToolCallResult, ToolExecutor } from '@toolwright/executor';
import { decodeOpenAIStrictArguments, lowerForOpenAIStrict, type ToolFilter } from '@toolwright/registry';

export interface AgentToolsOptions {
  filter?: ToolFilter;
  context?: Omit<CallContext, 'signal' | 'preApproved'>;
  onResult?: (result: ToolCallResult) => void;
}

/**
 * OpenAI Agents JS function tools from the executor's registry. Parameters are the strict lowering
 * of each declaration (`lowerForOpenAIStrict`); the model's arguments are decoded back to the tool's
 * own shape once (`decodeOpenAIStrictArguments`), and that one value is what the gate preview judges
 * and the executor validates and runs. Every call runs through the executor; a failed call returns its
 * correction text as the tool output, so the model can fix its next call. `needsApproval` is the
 * executor's gate preview: the Runner turns it into an interruption, and a call approved there runs
 * pre-approved (a policy denial still stands).
 */
export function toAgentTools(executor: ToolExecutor, options: AgentToolsOptions = {}): FunctionTool[] {
  return executor.registry.list(options.filter).map((declaration) => {
    const name = declaration.name;
    // The Runner hands `needsApproval` and `execute` the same parsed input: decode it once.
    const decoded = new WeakMap<object, Record<string, unknown>>();
    const decode = (input: unknown): Record<string, unknown> => {
      if (typeof input !== 'object' || input === null) return {};
      let args = decoded.get(input);
      if (!args) decoded.set(input, (args = decodeOpenAIStrictArguments(declaration.parameters, input as Record<string, unknown>)));
      return args;
    };
    const gate = (args: Record<string, unknown>) => executor.previewGate(name, args, options.context).decision;
    return tool({
      name,
      description: declaration.description,
      parameters: lowerForOpenAIStrict(declaration.parameters) as Parameters<typeof tool>[0]['parameters'] & { type: 'object' },
      strict: true,
      needsApproval: async (_runContext: unknown, input: unknown) => gate(decode(input)) === 'ask',
      execute: async (input: unknown, _runContext: unknown, details?: { toolCall?: { callId?: string }; signal?: AbortSignal }) => {
        const args = decode(input);
        const approvedByHost = gate(args) === 'ask';
        const result = await executor.executeToolCall(
          { id: details?.toolCall?.callId ?? `agents_${Date.now().toString(36)}`, name, arguments: args },
          { ...options.context, ...(details?.signal ? { signal: details.signal } : {}), ...(approvedByHost ? { preApproved: () => true } : {}) },
        );
        options.onResult?.(result);
        return result.content;
      },
    } as Parameters<typeof tool>[0]) as FunctionTool;
  });
}
