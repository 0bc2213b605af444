import type { AskQuestion, AskQuestions, RootsAnswer, SampleAnswer } from '@toolwright/tool';
import { hasTerminalControls } from '../terminal-safe.js';
import { checkedAnswer, formProblem } from './elicit-form.js';

/** Most questions in one round, the longest key, most messages of a sample, its longest text, the most tokens. */
export const ASK_LIMITS = { questions: 8, keyChars: 64, messages: 64, textChars: 100_000, maxTokens: 1_000_000, roots: 1_000 } as const;

const KEY = /^[A-Za-z0-9_.-]+$/;

/**
 * Why a round of a tool's questions (`getToolContext().ask`) cannot be asked, or undefined when it can: the keys, and
 * each question — a form a person can fill in, a sample a client's model can answer, a roots listing. A tool's mistake,
 * reported to the tool as an error.
 */
export function questionsProblem(questions: unknown): string | undefined {
  if (typeof questions !== 'object' || questions === null || Array.isArray(questions)) return 'the questions are not an object of keyed questions';
  const keys = Object.keys(questions);
  if (keys.length === 0) return 'there is nothing to ask';
  if (keys.length > ASK_LIMITS.questions) return `${keys.length} questions in one round, over ${ASK_LIMITS.questions}`;
  for (const key of keys) {
    if (!KEY.test(key) || key.length > ASK_LIMITS.keyChars || key === '__proto__')
      return `the key ${JSON.stringify(key.slice(0, ASK_LIMITS.keyChars))} is not letters, digits, '_', '-' and '.' (up to ${ASK_LIMITS.keyChars})`;
    const problem = questionProblem((questions as Record<string, unknown>)[key]);
    if (problem) return `question '${key}': ${problem}`;
  }
  return undefined;
}

function questionProblem(question: unknown): string | undefined {
  if (typeof question !== 'object' || question === null) return "is not a question ({ kind: 'form' | 'sample' | 'roots', ... })";
  const { kind } = question as { kind?: unknown };
  if (kind === 'form') {
    const { message, schema } = question as { message?: unknown; schema?: unknown };
    return formProblem(message, schema);
  }
  if (kind === 'sample') return sampleProblem(question as Record<string, unknown>);
  if (kind === 'roots') return undefined;
  return `has kind ${JSON.stringify(kind)}: a question is a 'form', a 'sample' or 'roots'`;
}

function sampleProblem(sample: Record<string, unknown>): string | undefined {
  const { messages, maxTokens, systemPrompt, temperature, stopSequences } = sample;
  if (!Array.isArray(messages) || messages.length === 0) return 'has no messages';
  if (messages.length > ASK_LIMITS.messages) return `has ${messages.length} messages, over ${ASK_LIMITS.messages}`;
  for (const [index, message] of messages.entries()) {
    const problem = messageProblem(message);
    if (problem) return `message ${index + 1} ${problem}`;
  }
  if (!Number.isInteger(maxTokens) || (maxTokens as number) < 1 || (maxTokens as number) > ASK_LIMITS.maxTokens)
    return `has maxTokens ${JSON.stringify(maxTokens)}: a whole number from 1 to ${ASK_LIMITS.maxTokens}`;
  if (systemPrompt !== undefined && (typeof systemPrompt !== 'string' || systemPrompt.length > ASK_LIMITS.textChars))
    return `has a systemPrompt that is not text of at most ${ASK_LIMITS.textChars} characters`;
  if (temperature !== undefined && !(typeof temperature === 'number' && Number.isFinite(temperature))) return 'has a temperature that is not a number';
  if (stopSequences !== undefined && (!Array.isArray(stopSequences) || stopSequences.some((stop) => typeof stop !== 'string')))
    return 'has stopSequences that are not strings';
  return undefined;
}

/** A sampling message: a role and one text, image or audio block. */
function messageProblem(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return 'is not { role, content }';
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (role !== 'user' && role !== 'assistant') return "has a role that is not 'user' or 'assistant'";
  return blockProblem(content);
}

function blockProblem(content: unknown): string | undefined {
  if (typeof content !== 'object' || content === null) return 'has no content block';
  const block = content as Record<string, unknown>;
  if (block.type === 'text')
    return typeof block.text === 'string' && block.text.length <= ASK_LIMITS.textChars
      ? undefined
      : `has a text that is not text of at most ${ASK_LIMITS.textChars} characters`;
  if (block.type === 'image' || block.type === 'audio')
    return typeof block.data === 'string' && typeof block.mimeType === 'string' ? undefined : `has an ${block.type} without base64 data and a mimeType`;
  return "has a content block that is not 'text', 'image' or 'audio'";
}

/**
 * The answer to one question as the tool receives it: a form's content fits its schema (see `checkedAnswer`), a sample
 * is a message of the client's model, the roots are `file://` URIs; anything else is `unavailable`, saying why.
 */
export function checkedAsked(question: AskQuestion, answer: unknown): unknown {
  const unavailable = unavailableOf(answer);
  if (question.kind === 'form') return checkedAnswer(question.schema, answer);
  if (unavailable) return unavailable;
  return question.kind === 'sample' ? checkedSample(answer) : checkedRoots(answer);
}

function unavailableOf(answer: unknown): { action: 'unavailable'; message: string } | undefined {
  if (typeof answer !== 'object' || answer === null || (answer as { action?: unknown }).action !== 'unavailable') return undefined;
  const message = (answer as { message?: unknown }).message;
  return { action: 'unavailable', message: typeof message === 'string' && message !== '' ? message : 'nobody could be asked' };
}

function checkedSample(answer: unknown): SampleAnswer {
  const given = typeof answer === 'object' && answer !== null ? (answer as { action?: unknown; content?: unknown }) : {};
  if (given.action !== 'accept') return { action: 'unavailable', message: 'the client gave no completion' };
  const message = given.content;
  const problem = messageProblem(message);
  if (problem) return { action: 'unavailable', message: `the completion ${problem}` };
  const { role, content, model, stopReason } = message as Record<string, unknown>;
  if (typeof model !== 'string') return { action: 'unavailable', message: 'the completion does not name its model' };
  return {
    action: 'accept',
    content: { role: role as 'user' | 'assistant', content: content as never, model, ...(typeof stopReason === 'string' ? { stopReason } : {}) },
  };
}

function checkedRoots(answer: unknown): RootsAnswer {
  const given = typeof answer === 'object' && answer !== null ? (answer as { action?: unknown; content?: unknown }) : {};
  if (given.action !== 'accept' || !Array.isArray(given.content)) return { action: 'unavailable', message: 'the client gave no list of roots' };
  if (given.content.length > ASK_LIMITS.roots)
    return { action: 'unavailable', message: `the client gave ${given.content.length} roots, over ${ASK_LIMITS.roots}` };
  const roots: { uri: string; name?: string }[] = [];
  for (const root of given.content as unknown[]) {
    const { uri, name } = (typeof root === 'object' && root !== null ? root : {}) as Record<string, unknown>;
    if (typeof uri !== 'string' || !uri.startsWith('file://') || hasTerminalControls(uri))
      return { action: 'unavailable', message: `the client gave a root that is not a file:// URI: ${JSON.stringify(String(uri)).slice(0, 200)}` };
    if (name !== undefined && (typeof name !== 'string' || hasTerminalControls(name)))
      return { action: 'unavailable', message: 'the client gave a root whose name is not plain text' };
    roots.push({ uri, ...(name !== undefined ? { name } : {}) });
  }
  return { action: 'accept', content: roots };
}

/** The questions as the host is handed them: a copy, so the tool changing its object later changes nothing asked. */
export function frozenQuestions(questions: AskQuestions): AskQuestions {
  return Object.freeze(structuredClone(questions));
}
