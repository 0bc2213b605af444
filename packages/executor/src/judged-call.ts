/**
 * The gate's judgement of one call, made ahead of its run (`ToolExecutor.judgeCall`) — for a host with its own
 * approval flow, which shows `decision` before the call runs — and handed to that run (`CallContext.judged`) so
 * the pipeline does not judge the call again. It counts only for the executor that made it, for the call id,
 * tool and arguments it was made for (`argsHash`), once, within its lifetime; otherwise the run judges the call
 * itself. A look-alike object counts for nothing: what the run uses is kept by the executor.
 */
export interface JudgedCall {
  readonly callId: string;
  readonly tool: string;
  /** sha-256 of the canonical arguments judged (the executor's `argsHash`). */
  readonly argsHash: string;
  /** What the gate decided (see `GatePreview`): the call runs, a person must approve it first, or it is refused. */
  readonly decision: 'allow' | 'ask' | 'deny';
  readonly reason: string;
  /** Protected paths the person asked must see and confirm (`confirmProtected`). */
  readonly protectedPaths?: readonly string[];
  /** The call asks to run outside the sandbox, and why: only a person confirming it (`confirmEscalation`) approves it. */
  readonly escalation?: string;
}
