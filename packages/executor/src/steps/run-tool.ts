import {
  runWithToolContext,
  type AskAnswers,
  type AskQuestions,
  type ElicitAnswer,
  type ElicitSchema,
  type ElicitedValue,
  type JudgedPaths,
  type OutputBudget,
  type ToolCallContext,
  type ToolProgress,
  type WorkspaceRules,
} from '@toolwright/tool';
import type { CallState, PipelineStep } from '../call-state.js';
import type { EventBus } from '../events.js';
import type { AskHandler, ElicitHandler } from '../ports.js';
import { checkedAsked, frozenQuestions, questionsProblem } from '../run/ask-questions.js';
import { formProblem } from '../run/elicit-form.js';
import { runWithTimeout, type LazySignal, type RunOutcome } from '../run/run-with-timeout.js';

/** What running a tool needs: where events go, how often a heartbeat, the longest any call may take, the output budget. */
export interface RunServices {
  events: EventBus;
  heartbeatMs: number;
  maxTimeoutMs: number | undefined;
  outputBudget: OutputBudget;
  /** The executor's explicit grant (`ExecutorOptions.capabilities`), handed to the tool's context. */
  capabilities?: readonly string[] | undefined;
  /** The workspace root for calls that name none (`ExecutorOptions.workspace`). */
  workspace?: string | undefined;
  /** What the workspace keeps from tools (`ExecutorOptions.workspaceRules`), handed to the tool's context. */
  workspaceRules?: WorkspaceRules | undefined;
  /** Who answers the tool's forms one by one (`ExecutorOptions.elicit`) where nobody answers whole rounds. */
  elicit?: ElicitHandler | undefined;
  /** Who answers a round of the tool's questions (`ExecutorOptions.ask`); with neither, every question is `unavailable`. */
  ask?: AskHandler | undefined;
}

/** Step: runs the tool (`runTool`); a timeout, a cancellation or the tool's own failure ends the call. */
export function runToolStep(services: RunServices): PipelineStep {
  return {
    stage: 'run',
    run: (state) => runTool(services, state),
    settle(state, value) {
      const run = value as RunOutcome<unknown>;
      if (!run.ok) return state.audit.fail(run.error, state.proof);
      state.output = run.value;
      return undefined;
    },
  };
}

/** What running a call reads of its state: the call, its tool and arguments, the caller's context, the gate's confirmation. */
export type RunInput = Pick<CallState, 'call' | 'tool' | 'args' | 'context' | 'escalationConfirmed'> & Partial<Pick<CallState, 'judgedPaths' | 'audit'>>;

/**
 * Runs the tool under the shorter of its own limit and the caller's, inside its tool context
 * (`getToolContext()`, with the output budget), with heartbeat and progress events while listeners are attached.
 */
export function runTool(services: RunServices, input: RunInput): Promise<RunOutcome<unknown>> {
  const { call, tool, args, context } = input;
  const timeoutMs = Math.min(limit(tool.declaration.metadata.timeoutMs), limit(context.timeoutMs), limit(services.maxTimeoutMs));
  const { events } = services;
  const start = (lazy: LazySignal) => runWithToolContext(new RunningCall(input, lazy, events, services), () => tool.invoke(args));
  if (!events.active) return runWithTimeout(start, timeoutMs, context.signal);
  const startedAt = performance.now();
  events.emit({ type: 'tool_call_start', callId: call.id, tool: call.name, state: 'running' });
  const heartbeat = setInterval(
    () => events.emit({ type: 'tool_call_heartbeat', callId: call.id, tool: call.name, elapsedMs: Math.round(performance.now() - startedAt) }),
    services.heartbeatMs,
  );
  const running = runWithTimeout(start, timeoutMs, context.signal);
  void running.finally(() => clearInterval(heartbeat));
  return running;
}

/** The longest delay a timer holds (Node fires a longer one at once): also the limit when none is set. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A limit as a timer can take it: a missing or NaN limit is no limit, a negative one expires at once. */
function limit(ms: number | undefined): number {
  return typeof ms === 'number' && !Number.isNaN(ms) ? Math.min(Math.max(ms, 0), MAX_TIMER_MS) : MAX_TIMER_MS;
}

/**
 * The context a running tool reads with `getToolContext()`: built once per call, its signal made on
 * first use. Its internals are `#private`, so logging or spreading it shows only the call's fields.
 */
class RunningCall implements ToolCallContext {
  readonly callId: string;
  readonly toolName: string;
  sessionId?: string;
  taskId?: string;
  actorId?: string;
  workspace?: string;
  workspaceRules?: WorkspaceRules;
  readonly outputBudget: OutputBudget;
  capabilities?: readonly string[];
  /** Only from the gate's outcome (`RunInput.escalationConfirmed`): neither the arguments nor the caller's context reach it. */
  readonly escalationConfirmed?: boolean;
  /** Only from the gate (`RunInput.judgedPaths`): what it judged the call's paths by. */
  readonly judgedPaths?: JudgedPaths;
  readonly #lazy: LazySignal;
  readonly #events: EventBus;
  #reporter: ((update: ToolProgress) => void) | undefined;
  readonly #elicit: ElicitHandler | undefined;
  readonly #ask: AskHandler | undefined;
  readonly #audit: RunInput['audit'];

  constructor(
    { call, context, escalationConfirmed, judgedPaths, audit }: RunInput,
    lazy: LazySignal,
    events: EventBus,
    services: Pick<RunServices, 'outputBudget' | 'capabilities' | 'workspace' | 'workspaceRules' | 'elicit' | 'ask'>,
  ) {
    this.callId = call.id;
    this.toolName = call.name;
    if (escalationConfirmed === true) this.escalationConfirmed = true;
    if (judgedPaths !== undefined) this.judgedPaths = judgedPaths;
    this.outputBudget = services.outputBudget;
    const granted = context.capabilities ?? services.capabilities;
    if (granted !== undefined) this.capabilities = Object.freeze([...granted]);
    if (context.sessionId !== undefined) this.sessionId = context.sessionId;
    if (context.taskId !== undefined) this.taskId = context.taskId;
    if (context.actorId !== undefined) this.actorId = context.actorId;
    const workspace = context.workspace ?? services.workspace;
    if (workspace !== undefined) this.workspace = workspace;
    const rules = context.workspaceRules ?? services.workspaceRules;
    if (rules !== undefined) {
      const { protectedPaths, deniedPaths } = rules;
      this.workspaceRules = Object.freeze({
        ...(protectedPaths ? { protectedPaths: Object.freeze([...protectedPaths]) } : {}),
        ...(deniedPaths ? { deniedPaths: Object.freeze([...deniedPaths]) } : {}),
      });
    }
    this.#lazy = lazy;
    this.#events = events;
    this.#elicit = services.elicit;
    this.#ask = services.ask;
    this.#audit = audit;
  }

  get signal(): AbortSignal {
    return this.#lazy.signal;
  }

  /** A function of its own, so `const { elicit } = getToolContext()` works unbound. A malformed form is the tool's error. */
  get elicit(): <const S extends ElicitSchema>(message: string, schema: S) => Promise<ElicitAnswer<ElicitedValue<S>>> {
    return async <const S extends ElicitSchema>(message: string, schema: S) => {
      const problem = formProblem(message, schema);
      if (problem) throw new TypeError(`getToolContext().elicit: ${problem}`);
      const { question } = await this.#askRound({ question: { kind: 'form', message, schema } });
      return question as ElicitAnswer<ElicitedValue<S>>;
    };
  }

  /** A function of its own, so `const { ask } = getToolContext()` works unbound. A malformed question is the tool's error. */
  get ask(): <const Q extends AskQuestions>(questions: Q) => Promise<AskAnswers<Q>> {
    return async <const Q extends AskQuestions>(questions: Q) => {
      const problem = questionsProblem(questions);
      if (problem) throw new TypeError(`getToolContext().ask: ${problem}`);
      return (await this.#askRound(frozenQuestions(questions))) as AskAnswers<Q>;
    };
  }

  /**
   * Asks a round (checked) through the host: whole by its `ask` handler, else its forms one by one by its `elicit`
   * handler; each answer checked against its question. A host that cannot ask answers `unavailable`, saying why.
   */
  async #askRound(questions: AskQuestions): Promise<Record<string, unknown>> {
    let answers: Record<string, unknown>;
    try {
      answers = await this.#answerRound(questions);
    } catch (ended) {
      // The run ended while it waited (its questions went to a client that answers in a later call): no answer.
      this.#noteAsked(questions, Object.fromEntries(Object.keys(questions).map((key) => [key, { action: 'deferred' }])));
      throw ended;
    }
    this.#noteAsked(questions, answers);
    return answers;
  }

  async #answerRound(questions: AskQuestions): Promise<Record<string, unknown>> {
    const signal = this.#lazy.signal;
    const keys = Object.keys(questions);
    const everyone = (answer: unknown) => Object.fromEntries(keys.map((key) => [key, checkedAsked(questions[key]!, answer)]));
    if (signal.aborted) return everyone({ action: 'cancel' });
    const failed = (error: unknown) => ({ action: 'unavailable', message: `asking failed: ${error instanceof Error ? error.message : String(error)}` });
    let given: Readonly<Record<string, unknown>>;
    if (this.#ask) {
      given = await this.#ask({ callId: this.callId, tool: this.toolName, questions, signal }).catch((error: unknown) => {
        // The run was ended while asking (a hand-over, a cancellation): the tool gets no answer it could act on.
        if (signal.aborted) throw error;
        return everyone(failed(error));
      });
    } else if (this.#elicit) {
      const answers: Record<string, unknown> = {};
      for (const key of keys) {
        const question = questions[key]!;
        answers[key] =
          question.kind === 'form'
            ? await this.#elicit({ callId: this.callId, tool: this.toolName, message: question.message, schema: question.schema, signal }).catch(failed)
            : {
                action: 'unavailable',
                message: `this host cannot ask for ${question.kind === 'sample' ? "a sample of its client's model" : "its client's roots"}`,
              };
      }
      given = answers;
    } else {
      return everyone({ action: 'unavailable', message: 'this host has no way to ask a person (no ask or elicit handler)' });
    }
    return Object.fromEntries(
      keys.map((key) => [
        key,
        checkedAsked(questions[key]!, Object.hasOwn(given, key) ? given[key] : { action: 'unavailable', message: 'the host gave no answer to it' }),
      ]),
    );
  }

  /**
   * The audit record of a round: what was asked (each key's kind, a form's message) and how it was answered (the
   * action; why, when unavailable) — never the content given, which may be a person's data.
   */
  #noteAsked(questions: AskQuestions, answers: Record<string, unknown>): void {
    this.#audit?.note({
      type: 'ToolAsked',
      callId: this.callId,
      tool: this.toolName,
      questions: Object.fromEntries(
        Object.entries(questions).map(([key, question]) => [
          key,
          question.kind === 'form' ? { kind: 'form', message: question.message } : { kind: question.kind },
        ]),
      ),
      answers: Object.fromEntries(
        Object.entries(answers).map(([key, answer]) => {
          const { action, message } = answer as { action: string; message?: string };
          return [key, action === 'unavailable' ? { action, message } : { action }];
        }),
      ),
    });
  }

  /** A function of its own, so `const { progress } = getToolContext()` works unbound. */
  get progress(): (update: ToolProgress) => void {
    return (this.#reporter ??= (update) => this.#events.emit({ type: 'tool_call_update', callId: this.callId, tool: this.toolName, progress: update }));
  }
}
