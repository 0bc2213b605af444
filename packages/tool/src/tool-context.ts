import { AsyncLocalStorage } from 'node:async_hooks';
import type { AskAnswers, AskQuestions, ElicitAnswer, ElicitedValue, ElicitSchema } from './tool-questions.js';

/** A partial result a tool reports while it runs (streamed to the UI and to MCP progress notifications). */
export interface ToolProgress {
  message?: string;
  /** Work done so far, with `total` when known. */
  progress?: number;
  total?: number;
  data?: unknown;
}

/**
 * What a workspace keeps from tools, as the core tools' workspace has it (`WorkspaceConfig` of @toolwright/core-tools):
 * a tool that reaches files by its own means (a WebAssembly module's host calls, a subprocess's mounts) applies it.
 */
export interface WorkspaceRules {
  /** Paths only a person may let a tool change (gitignore-style: `.git` at any depth, `/build` below the root). */
  protectedPaths?: readonly string[];
  /** Paths hidden from every tool (glob patterns relative to the root: `secrets/**`). */
  deniedPaths?: readonly string[];
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
  /** What the workspace keeps from tools (its protected and hidden paths), when the caller set it with the workspace. */
  workspaceRules?: WorkspaceRules;
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
  /**
   * Asks the person behind the call for more input mid-call: a flat form (strings, numbers, booleans, choices), the
   * answer typed from the schema. Over MCP it is the client's elicitation (2025-11-25) or an `input_required` result
   * (2026-07-28, where the client calls again with the answer and the tool runs again from the start, getting the
   * answers it was given back in order: work before a question must be safe to repeat). Where nobody can be asked
   * the answer is `unavailable`, with why; an accepted answer has been checked against the schema.
   * @example
   * const answer = await getToolContext()?.elicit('Which branch?', { type: 'object', properties: { branch: { type: 'string' } }, required: ['branch'] });
   * if (answer?.action !== 'accept') return 'not deployed';
   */
  elicit<const S extends ElicitSchema>(message: string, schema: S): Promise<ElicitAnswer<ElicitedValue<S>>>;
  /**
   * Asks the client several things in one round, each under a key of the tool's choosing: a person's form
   * (`kind: 'form'`), a completion from the client's model (`kind: 'sample'`), the client's roots (`kind: 'roots'`). Over
   * MCP 2026-07-28 they travel together in one `input_required` result (keyed as given, each only where the client
   * declared the capability); 2025-11-25 asks them one after another. Each answer is checked (a form's content against
   * its schema, a sample's message, the roots' URIs); what could not be asked is `unavailable`, with why.
   * @example
   * const { name, roots } = await getToolContext()!.ask({
   *   name: { kind: 'form', message: 'Your name?', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
   *   roots: { kind: 'roots' },
   * });
   */
  ask<const Q extends AskQuestions>(questions: Q): Promise<AskAnswers<Q>>;
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
