import { AsyncLocalStorage } from 'node:async_hooks';

/** A partial result a tool reports while it runs (streamed to the UI and to MCP progress notifications). */
export interface ToolProgress {
  message?: string;
  /** Work done so far, with `total` when known. */
  progress?: number;
  total?: number;
  data?: unknown;
}

/**
 * What the executor tells a running tool about its call. Tools read it with `getToolContext()`,
 * so their signatures stay plain data (nothing non-JSON leaks into the schema).
 */
export interface ToolCallContext {
  callId: string;
  toolName: string;
  /** The conversation or agent session the call belongs to (stateful tools keep state per session). */
  sessionId?: string;
  taskId?: string;
  actorId?: string;
  /** The workspace root the call is confined to, when the caller set one. */
  workspace?: string;
  /** Aborted at the deadline, on cancellation, or when the user interrupts. */
  signal: AbortSignal;
  /** Streams a partial result to the executor's `tool_call_update` listeners (a no-op when none is attached). */
  progress(update: ToolProgress): void;
  /**
   * How much model-facing text the executor passes on uncut. A tool that can produce more (a long
   * file, a large listing) returns at most this much and says how to get the rest, so the
   * executor's own truncation stays a safety net. Absent outside an executor.
   */
  outputBudget?: OutputBudget;
  /**
   * The capabilities granted to this call when the caller granted them explicitly (the call's own
   * grant, else the executor's `capabilities`); absent when everything is granted by default. A tool
   * that can do more with a capability (the shell's network) checks for it here.
   */
  capabilities?: readonly string[];
  /**
   * `true` when a person confirmed that this very call runs outside its tool's sandbox: the executor
   * asked its approver about the call's escalation and the answer carried `confirmEscalation` (no
   * allow rule, remembered or blanket approval, nor approval token sets it). Set only by the executor,
   * from its safety gate, never from the call's arguments; a tool that can leave its sandbox
   * (`shell_exec` with `escalate`) does so only when this is `true`.
   */
  readonly escalationConfirmed?: boolean;
  /**
   * What the executor's safety gate judged this call's paths by (set only by the executor, from its
   * gate). A tool that resolves a path again when it uses it holds the file it really touches to this:
   * a link flipped between the gate and the use must not carry the call to a file nobody judged.
   */
  readonly judgedPaths?: JudgedPaths;
}

/** The paths a call was judged by at the safety gate (see `ToolCallContext.judgedPaths`). */
export interface JudgedPaths {
  /**
   * Per path argument the policy's path rules looked at: the spellings the tool host's resolver gave
   * for it at the gate (empty when it resolved to nothing). An argument no rule looked at is absent.
   */
  readonly resolved: Readonly<Record<string, readonly string[]>>;
  /**
   * The protected paths the tool's risk hook named, which the call's approval covered (the call would
   * not run otherwise); absent when the tool has no risk hook, so nothing was judged protected.
   */
  readonly protectedPaths?: readonly string[];
}

/** The size of the text the model will read back from one call. */
export interface OutputBudget {
  /** UTF-16 characters of model-facing text (the executor's truncation limit). */
  maxChars: number;
}

const storage = new AsyncLocalStorage<ToolCallContext>();

/**
 * The context of the tool call running on this async path, or undefined outside a call
 * (e.g. when the function is called directly in a test).
 * @example
 * export const crawl = tool(async function crawl(url: string) {
 *   const { signal } = getToolContext() ?? { signal: undefined };
 *   return (await fetch(url, { signal })).text();
 * });
 */
export function getToolContext(): ToolCallContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with `context` as the current tool context (used by the executor). */
export function runWithToolContext<T>(context: ToolCallContext, fn: () => T): T {
  return storage.run(context, fn);
}
