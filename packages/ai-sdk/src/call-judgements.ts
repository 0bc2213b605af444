import type { ToolApprovalStatus } from 'ai';
import type { CallContext, JudgedCall, ToolExecutor } from '@toolwright/executor';

/**
 * The executor's gate judgement of each call the SDK asked about, from the approval question (`toolApproval`, or
 * the deprecated `needsApproval`) to the call's `execute`, which hands it to the executor (`context.judged`): one
 * judgement per call. The SDK asks again, for the same call and input, when an approved call is replayed from the
 * messages; that question gets the judgement already made. Bounded, so calls never run cannot pile up.
 */
export class CallJudgements {
  static readonly LIMIT = 1024;
  readonly #judged = new Map<string, { input: string; judged: JudgedCall }>();

  constructor(
    private readonly executor: ToolExecutor,
    private readonly context: CallContext | undefined,
  ) {}

  /** The judgement of this call: the one made earlier for the same call id, tool and input, else a new one. */
  judge(toolCallId: string, tool: string, args: Record<string, unknown>): JudgedCall {
    const input = JSON.stringify(args);
    const earlier = this.#judged.get(toolCallId);
    if (earlier && earlier.judged.tool === tool && earlier.input === input) return earlier.judged;
    const judged = this.executor.judgeCall({ id: toolCallId, name: tool, arguments: args }, this.context);
    this.#judged.delete(toolCallId);
    this.#judged.set(toolCallId, { input, judged });
    if (this.#judged.size > CallJudgements.LIMIT) this.#judged.delete(this.#judged.keys().next().value!);
    return judged;
  }

  /** The judgement made for this call, for its run; none when the SDK never asked (the run judges the call itself). */
  take(toolCallId: string): JudgedCall | undefined {
    const kept = this.#judged.get(toolCallId);
    this.#judged.delete(toolCallId);
    return kept?.judged;
  }
}

/**
 * A judgement as the SDK's approval status: `ask` is the user's approval, with the reason (and any protected paths or
 * escalation, which the person must see) on the request; `allow` and `deny` are `not-applicable` — the call goes to
 * `execute`, where the executor runs it or refuses it (audited, with the correction text the model reads).
 */
export function approvalStatusOf(judged: JudgedCall): ToolApprovalStatus {
  if (judged.decision !== 'ask') return 'not-applicable';
  const notes = [
    ...(judged.protectedPaths?.length
      ? [`it touches the protected path${judged.protectedPaths.length > 1 ? 's' : ''} ${judged.protectedPaths.join(', ')}`]
      : []),
    ...(judged.escalation !== undefined ? [`it asks to run outside the sandbox: ${judged.escalation}`] : []),
  ];
  return { type: 'user-approval', reason: [judged.reason, ...notes].join('; ') };
}
