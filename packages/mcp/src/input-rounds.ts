import { createHash } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, inputResponse, type ClientCapabilities, type ServerContext } from '@modelcontextprotocol/server';
import type { ApprovalAnswer } from '@toolwright/executor';
import type { ElicitAnswer } from '@toolwright/tool';
import { answerOf, type QuestionKind } from './approval-forms.js';

// 2026-07-28 asks the client's user with an `input_required` result: the client asks, then calls again with the
// answer (`inputResponses`) and the `requestState` the server left, which the server sealed (an HMAC) and checks
// before the handler runs. The call runs again from the start, given what was answered so far.

/** The key of the input request an approval makes (a round of its own: a tool's questions come under the tool's keys). */
export const APPROVAL_INPUT = 'approval';

/** The most rounds of questions one call may ask a 2026-07-28 client, and the most answer text carried between rounds. */
export const ROUND_LIMITS = { rounds: 16, answerChars: 256 * 1024 } as const;

/** What a key of a round asked: a form (elicitation), a sample (sampling) or the roots. */
export type AskedKind = 'form' | 'sample' | 'roots';

/**
 * An answer as it was given: to which question (a digest of the form the person saw: its message and fields), so it
 * is never taken for another — a run that asks something else at that point (a protected path the file system now
 * shows, a question worded from changed data) is asked again.
 */
export interface GivenAnswer<A> {
  question: string;
  answer: A;
}

/** What `requestState` carries between the rounds of one call (sealed). */
export interface RoundState {
  /** The call's tool and arguments, hashed: the answers are for this call only. */
  fingerprint: string;
  /** This state's own name: a state is used once (see `SpentStates`). */
  nonce: string;
  /** The executor's id of the call's first round: every retry's audit records name it (`retryOf`). */
  origin?: string;
  /** The approval given in an earlier round, to the kind of question it answered. */
  approval?: GivenAnswer<ApprovalAnswer> & { kind: QuestionKind };
  /** The tool's rounds of questions answered so far, in the order it asked them: per round, the answers by key. */
  answers: GivenAnswer<Record<string, unknown>>[];
  /**
   * What the last round asked (the digest of its form or questions): its answers are in this round's `inputResponses`
   * — for a tool's round, under each key asked; the keys the client could not be asked are answered as noted.
   */
  asked: { approval: QuestionKind; question: string } | AskedRound;
}

/** A tool's round as handed to the client: what each key asks, and why the others were not asked. */
export interface AskedRound {
  question: string;
  keys: Record<string, AskedKind>;
  unavailable?: Record<string, string>;
}

/** What a retry brings to a call: the approval and the answers given so far (nothing for a first round, or another call's). */
export interface CarriedAnswers {
  /** The name of the state they came in (spent once used). */
  nonce?: string;
  /** The call id of the first round (see `RoundState.origin`). */
  origin?: string;
  approval?: GivenAnswer<ApprovalAnswer> & { kind: QuestionKind };
  answers: GivenAnswer<Record<string, unknown>>[];
}

/** The digest of a question as the person saw it: its message and its form. */
export function questionDigest(form: { message: string; requestedSchema: unknown }): string {
  return digestOf([form.message, form.requestedSchema]);
}

/** The digest of a tool's round of questions (keys, kinds, messages, forms, samples). */
export function roundDigest(questions: unknown): string {
  return digestOf(questions);
}

function digestOf(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(sortedKeys(value)))
    .digest('base64url');
}

/**
 * The answers a 2026-07-28 retry carries for this call: its sealed state must be of the same tool and arguments; the
 * answers to what the last round asked are folded in. A state of another call carries nothing: the call is asked
 * again. (One the server cannot verify — altered, expired, another key — never gets here: it is refused, -32602.)
 */
export function carriedAnswers(ctx: ServerContext, fingerprint: () => string): CarriedAnswers {
  const state = ctx.mcpReq.requestState<RoundState>();
  if (typeof state !== 'object' || state === null || !Array.isArray(state.answers) || state.fingerprint !== fingerprint()) return { answers: [] };
  const carried: CarriedAnswers = {
    ...(typeof state.nonce === 'string' ? { nonce: state.nonce } : {}),
    ...(typeof state.origin === 'string' ? { origin: state.origin } : {}),
    ...(state.approval ? { approval: state.approval } : {}),
    answers: [...state.answers],
  };
  const asked = state.asked;
  if (typeof asked !== 'object' || asked === null || typeof asked.question !== 'string') return carried;
  if ('approval' in asked) {
    const response = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT);
    if (response.kind === 'elicit')
      carried.approval = { kind: asked.approval, question: asked.question, answer: answerOf(asked.approval, response.action, response.content) };
  } else if (typeof asked.keys === 'object' && asked.keys !== null) {
    const answers = roundAnswers(ctx, asked);
    if (answers) carried.answers.push({ question: asked.question, answer: answers });
  }
  return carried;
}

/**
 * The answers a retry brings to a tool's round: each key asked answered with a response of the kind it asked for (a
 * form's `action`, a sample's message, a roots listing), the others as noted when the round was handed over; undefined
 * when a key asked has no such response (the round is asked again). Keys the round did not ask are ignored.
 */
function roundAnswers(ctx: ServerContext, asked: AskedRound): Record<string, unknown> | undefined {
  const answers: Record<string, unknown> = {};
  for (const [key, message] of Object.entries(asked.unavailable ?? {})) answers[key] = { action: 'unavailable', message };
  for (const [key, kind] of Object.entries(asked.keys)) {
    const answer = answerOfResponse(kind, inputResponse(ctx.mcpReq.inputResponses, key));
    if (!answer) return undefined;
    answers[key] = answer;
  }
  return answers;
}

/**
 * The answers to a task's round from its client's responses (`tasks/update`): a response of another kind than the
 * question's is no answer (`unavailable`, saying so).
 */
export function roundResponses(asked: Record<string, AskedKind>, responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(asked).map(([key, kind]) => [
      key,
      answerOfResponse(kind, inputResponse(responses, key)) ?? { action: 'unavailable', message: `the client's response to '${key}' is not one to a ${kind}` },
    ]),
  );
}

function answerOfResponse(kind: AskedKind, response: ReturnType<typeof inputResponse>): Record<string, unknown> | undefined {
  if (kind === 'form' && response.kind === 'elicit') return elicitAnswerOf(response.action, response.content);
  if (kind === 'sample' && response.kind === 'sampling') return { action: 'accept', content: response.result };
  if (kind === 'roots' && response.kind === 'roots') return { action: 'accept', content: response.roots };
  return undefined;
}

/** A client's answer to a tool's question, as the tool is given it (the executor checks it against the form). */
export function elicitAnswerOf(action: string, content: unknown): ElicitAnswer<Record<string, unknown>> {
  if (action === 'accept') return { action, content: (content ?? {}) as Record<string, unknown> };
  return action === 'decline' ? { action } : { action: 'cancel' };
}

/** Whether the answers carried so far leave room for one more round of questions (count and size). */
export function roomForAnotherRound(answers: readonly GivenAnswer<unknown>[]): boolean {
  return answers.length < ROUND_LIMITS.rounds && JSON.stringify(answers).length <= ROUND_LIMITS.answerChars;
}

/** The client's capabilities a 2026-07-28 request declares in its `_meta`. */
export function envelopeCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/** A call's tool and arguments, hashed (keys sorted): what an approval carried across rounds is bound to. */
export function fingerprintOf(name: string, args: Record<string, unknown>): string {
  return digestOf([name, args]);
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The states this process has seen used, each for as long as it could still verify: a state is good for one retry, so
 * the same answers sent again (a replay, a second retry racing the first) are asked again rather than run twice. A
 * process holds at most `max` (the oldest forgotten first); another process does not know of them.
 */
export class SpentStates {
  private readonly spent = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly max = 100_000,
  ) {}

  /** Marks the state used; false when it was already. */
  use(nonce: string, now = Date.now()): boolean {
    for (const [name, until] of this.spent) {
      if (until > now && this.spent.size < this.max) break;
      this.spent.delete(name);
    }
    if (this.spent.has(nonce)) return false;
    this.spent.set(nonce, now + this.ttlMs);
    return true;
  }
}
