import { jsonSchema, tool, type JSONValue, type ToolSet } from 'ai';
import {
  argumentsHash,
  blockText,
  escapeTerminalControls,
  type CallContext,
  type CompletedToolCall,
  type ToolCallResult,
  type ToolExecutor,
} from '@toolwright/executor';
import type { ToolFilter } from '@toolwright/registry';
import type { ToolDeclaration } from '@toolwright/schema';
import { approvedInMessages } from './approved-in-messages.js';
import { CallJudgements } from './call-judgements.js';

export interface AISdkToolsOptions {
  /** Which tools to offer (default: all registered). */
  filter?: ToolFilter;
  /** Caller context for every call (session, actor, capabilities, ...). */
  context?: Omit<CallContext, 'signal' | 'preApproved' | 'judged'>;
  /** Called with every result, e.g. to log or to show outputs the SDK does not surface. */
  onResult?: (result: ToolCallResult) => void;
}

/** Thrown for a failed call: its message is the correction text the model reads next. */
export class ToolCallFailedError extends Error {
  constructor(readonly result: ToolCallResult) {
    super(result.content);
    this.name = 'ToolCallFailedError';
  }

  /** The SDK sends `String(error)` to the model: send exactly the correction text. */
  override toString(): string {
    return this.message;
  }
}

/**
 * A Vercel AI SDK `ToolSet` from the executor's registry, approvals through each tool's `needsApproval` — the route
 * `ai` 7 deprecates: prefer `toAISdkSettings`, which gives the same tools and the executor's gate as the
 * `toolApproval` of `generateText` / `streamText`. Each tool's `inputSchema` is its declared parameters schema;
 * `execute` runs the call through the executor (validation, policy, audit, timeout with the SDK's abort signal,
 * truncation). A failed call throws `ToolCallFailedError`, which the SDK hands to the model as the tool error — the
 * executor's correction text. `needsApproval` is the executor's judgement of the call (`judgeCall`), made once and
 * handed to the run; a call the user approved in the SDK's flow runs approved (a policy denial still stands). The
 * host (UI, `onStepFinish`) gets the tool's structured output; the model reads the executor's text for it
 * (`toModelOutput`): the tool's own rendering (numbered lines, an exit code and output blocks), within the output budget.
 */
export function toAISdkTools(executor: ToolExecutor, options: AISdkToolsOptions = {}): ToolSet {
  return buildToolSet(executor, options, new CallJudgements(executor, options.context), { needsApproval: true });
}

/**
 * The tool set both routes share (`needsApproval`: with the deprecated per-tool approval question). `execute` hands the executor the judgement the approval question made for the call
 * (none when nobody asked: the executor judges it), and counts it approved only when the SDK's messages carry the
 * user's yes to the question the executor's gate asked (`approvedInMessages`) — for exactly the judged arguments.
 */
export function buildToolSet(
  executor: ToolExecutor,
  options: AISdkToolsOptions,
  judgements: CallJudgements,
  { needsApproval }: { needsApproval: boolean },
): ToolSet {
  const tools: ToolSet = {};
  const modelTexts = new ModelTexts();
  for (const declaration of executor.registry.list(options.filter)) {
    const name = declaration.name;
    tools[name] = tool({
      description: declaration.description,
      // The executor validates the arguments (and audits a refusal, with its correction text): the SDK only shows the schema.
      inputSchema: jsonSchema<Record<string, unknown>>(declaration.parameters as Parameters<typeof jsonSchema>[0]),
      ...providerSettings(declaration),
      ...(needsApproval
        ? { needsApproval: (input: Record<string, unknown>, { toolCallId }) => judgements.judge(toolCallId, name, asArgs(input)).decision === 'ask' }
        : {}),
      execute: async (input: Record<string, unknown>, { toolCallId, abortSignal, messages }) => {
        const judged = judgements.take(toolCallId);
        const args = asArgs(input);
        // The user approved this input as the SDK showed it: the approval covers the call made of it, even when the
        // executor's decoding, repair or a host's before-hook then rewrites the arguments it judges (and hashes).
        const approved = judged?.decision === 'ask' && approvedInMessages(messages, toolCallId) && receivedHash(args) === judged.argsHash;
        const result = await executor.executeToolCall(
          { id: toolCallId, name, arguments: args },
          {
            ...options.context,
            ...(abortSignal ? { signal: abortSignal } : {}),
            ...(judged ? { judged } : {}),
            ...(approved ? { preApproved: () => true } : {}),
          },
        );
        options.onResult?.(result);
        if (result.status !== 'completed') throw new ToolCallFailedError(result);
        modelTexts.set(toolCallId, { text: result.content, ...(result.blocks ? { blocks: result.blocks } : {}) });
        return result.output;
      },
      toModelOutput: ({ toolCallId, output }) => {
        const kept = modelTexts.take(toolCallId);
        // A result this tool set did not produce (a conversation restored from storage) goes as its JSON.
        if (kept === undefined) return { type: 'json', value: (output ?? null) as JSONValue };
        // Content blocks: images and sounds reach a model that takes files as files, the rest as text.
        return kept.blocks ? { type: 'content', value: kept.blocks.map(modelPart) } : { type: 'text', value: kept.text };
      },
    });
  }
  return tools;
}

/**
 * The declaration's per-tool provider settings as the SDK's own: `@defer` → `deferLoading` (found through the SDK's
 * `toolSearch`), `@example` → `inputExamples`, `strict: false` → `strict: false`. A tool's strictness is otherwise left
 * to the provider: its `inputSchema` is the declared schema, not OpenAI's strict lowering, so asking for strict mode
 * here would be refused by providers that take only that subset. `callers` has no SDK field (it is the provider's).
 */
function providerSettings(declaration: ToolDeclaration): { deferLoading?: true; inputExamples?: { input: Record<string, unknown> }[]; strict?: false } {
  const { defer, examples, strict } = declaration.metadata;
  return {
    ...(defer ? { deferLoading: true } : {}),
    ...(examples?.length ? { inputExamples: examples.map((input) => ({ input })) } : {}),
    ...(strict === false ? { strict: false } : {}),
  };
}

/** The hash the executor gives arguments as received (`judgeCall`'s), or none when they are not JSON. */
function receivedHash(args: Record<string, unknown>): string | undefined {
  try {
    return argumentsHash(args);
  } catch {
    return undefined;
  }
}

/** The SDK's input as the executor's arguments: an object as it is, anything else under `value`. */
export function asArgs(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : { value: input };
}

/**
 * The model-facing text of each completed call, from `execute` until the SDK asks for it in
 * `toModelOutput`. Bounded, so texts the SDK never asks for (an aborted run) cannot pile up.
 */
class ModelTexts {
  static readonly LIMIT = 1024;
  readonly #texts = new Map<string, ModelText>();

  set(callId: string, text: ModelText): void {
    this.#texts.delete(callId);
    this.#texts.set(callId, text);
    if (this.#texts.size > ModelTexts.LIMIT) this.#texts.delete(this.#texts.keys().next().value!);
  }

  take(callId: string): ModelText | undefined {
    const text = this.#texts.get(callId);
    this.#texts.delete(callId);
    return text;
  }
}

/** A block of a content result (`content(...)` of @toolwright/tool), as the executor's result carries it. */
type ContentBlock = NonNullable<CompletedToolCall['blocks']>[number];

/** What the model is given of one call: the executor's text, and a content result's blocks. */
interface ModelText {
  text: string;
  blocks?: readonly ContentBlock[];
}

/** One content block as a part of the SDK's content output: images and audio as files, everything else as its text. */
function modelPart(block: ContentBlock): { type: 'text'; text: string } | { type: 'file'; data: { type: 'data'; data: string }; mediaType: string } {
  if (block.type === 'image' || block.type === 'audio') return { type: 'file', data: { type: 'data', data: block.data }, mediaType: block.mimeType };
  if (block.type === 'resource' && 'blob' in block.resource)
    return { type: 'file', data: { type: 'data', data: block.resource.blob }, mediaType: block.resource.mimeType ?? 'application/octet-stream' };
  return { type: 'text', text: escapeTerminalControls(blockText(block)) };
}
