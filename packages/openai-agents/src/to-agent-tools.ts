import { tool, type FunctionTool } from '@openai/agents';
import { blockText, escapeTerminalControls, type CallContext, type CompletedToolCall, type ToolCallResult, type ToolExecutor } from '@toolwright/executor';
import { decodeOpenAIStrictCall, lowerForOpenAIStrict, type ToolFilter } from '@toolwright/registry';

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
 * pre-approved (a policy denial still stands). A tool that says `strict: false` is given its own schema, not strict,
 * and its arguments as they come; `defer` and `callers` become the SDK's `deferLoading` and `allowedCallers`
 * (Responses API). The SDK's function tools take no input examples: a tool's `examples` are not sent.
 */
export function toAgentTools(executor: ToolExecutor, options: AgentToolsOptions = {}): FunctionTool[] {
  return executor.registry.list(options.filter).map((declaration) => {
    const name = declaration.name;
    // The Runner hands `needsApproval` and `execute` the same parsed input: decode it once.
    const decoded = new WeakMap<object, Record<string, unknown>>();
    const decode = (input: unknown): Record<string, unknown> => {
      if (typeof input !== 'object' || input === null) return {};
      let args = decoded.get(input);
      if (!args) decoded.set(input, (args = decodeOpenAIStrictCall(declaration, input as Record<string, unknown>)));
      return args;
    };
    const gate = (args: Record<string, unknown>) => executor.previewGate(name, args, options.context).decision;
    const strict = declaration.metadata.strict !== false;
    return tool({
      name,
      description: declaration.description,
      parameters: (strict ? lowerForOpenAIStrict(declaration.parameters) : declaration.parameters) as Parameters<typeof tool>[0]['parameters'] & {
        type: 'object';
      },
      strict,
      ...(declaration.metadata.defer ? { deferLoading: true } : {}),
      ...(declaration.metadata.callers ? { allowedCallers: [...declaration.metadata.callers] } : {}),
      needsApproval: async (_runContext: unknown, input: unknown) => gate(decode(input)) === 'ask',
      execute: async (input: unknown, _runContext: unknown, details?: { toolCall?: { callId?: string }; signal?: AbortSignal }) => {
        const args = decode(input);
        const approvedByHost = gate(args) === 'ask';
        const result = await executor.executeToolCall(
          { id: details?.toolCall?.callId ?? `agents_${Date.now().toString(36)}`, name, arguments: args },
          { ...options.context, ...(details?.signal ? { signal: details.signal } : {}), ...(approvedByHost ? { preApproved: () => true } : {}) },
        );
        options.onResult?.(result);
        // Content blocks: images (and audio, blob resources as files) reach the model as the Agents SDK's structured output.
        if (result.status === 'completed' && result.blocks) return result.blocks.map(agentPart);
        return result.content;
      },
    } as Parameters<typeof tool>[0]) as FunctionTool;
  });
}

/** A block of a content result (`content(...)` of @toolwright/tool), as the executor's result carries it. */
type ContentBlock = NonNullable<CompletedToolCall['blocks']>[number];

/** One content block as the Agents SDK's structured tool output: an image, a file, or its text. */
function agentPart(
  block: ContentBlock,
):
  | { type: 'text'; text: string }
  | { type: 'image'; image: { data: string; mediaType: string } }
  | { type: 'file'; file: { data: string; mediaType: string; filename: string } } {
  if (block.type === 'image') return { type: 'image', image: { data: block.data, mediaType: block.mimeType } };
  if (block.type === 'audio')
    return { type: 'file', file: { data: block.data, mediaType: block.mimeType, filename: `audio.${block.mimeType.split('/')[1] ?? 'bin'}` } };
  if (block.type === 'resource' && 'blob' in block.resource)
    return {
      type: 'file',
      file: {
        data: block.resource.blob,
        mediaType: block.resource.mimeType ?? 'application/octet-stream',
        filename: block.resource.uri.split('/').pop() || 'resource',
      },
    };
  return { type: 'text', text: escapeTerminalControls(blockText(block)) };
}
