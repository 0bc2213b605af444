import { randomBytes } from 'node:crypto';
import { isTerminal, MemoryTaskStore, type TaskRecord, type TaskStatus, type TaskStore } from './task-store.js';

/** The extension a 2026-07-28 client declares (`clientCapabilities.extensions`) to be answered with tasks. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How tasks are made: where they are kept, how long they are kept, how often a client should poll. */
export interface TaskOptions {
  /** Default: in this process's memory (see `FileTaskStore` for tasks that outlive it). */
  store?: TaskStore;
  /** How long a task can be asked about after it is created, in ms (default one hour). */
  ttlMs?: number;
  /** How often a client should poll `tasks/get`, in ms (default 500). */
  pollIntervalMs?: number;
  /**
   * How long a call of a task tool runs as a plain call before it becomes a task, in ms (default 200): one that
   * ends (or asks its first question) sooner is answered at once, as the extension allows.
   */
  startAfterMs?: number;
  /**
   * The most tasks running at once (default 64): a task outlives its request, so this bounds the work clients can
   * leave behind. Past it, an `optional` task tool's call runs as a plain call (its client waits for it, as for any
   * call); a `required` one is refused until a task ends.
   */
  maxRunning?: number;
}

/** What is waiting on a task's client: the requests still unanswered, and the answers so far. */
interface PendingInput {
  requests: Record<string, unknown>;
  answers: Record<string, unknown>;
  resolve: (answers: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

/** A task of this process: what it runs, and how to stop it or answer it. */
interface LiveTask {
  abort: AbortController;
  pending?: PendingInput;
  /** Rounds asked so far: each round's keys carry its number, so an answer is only ever taken by its own round. */
  rounds: number;
}

/** The tasks of one server: the records a client polls, and the calls behind the live ones. */
export class Tasks {
  readonly store: TaskStore;
  readonly startAfterMs: number;
  readonly maxRunning: number;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly live = new Map<string, LiveTask>();

  constructor(options: TaskOptions = {}) {
    this.store = options.store ?? new MemoryTaskStore();
    this.ttlMs = Math.round(options.ttlMs ?? 3_600_000);
    this.pollIntervalMs = Math.round(options.pollIntervalMs ?? 500);
    this.startAfterMs = options.startAfterMs ?? 200;
    this.maxRunning = options.maxRunning ?? 64;
  }

  /** Whether another task may start (see `maxRunning`). */
  hasRoom(): boolean {
    return this.live.size < this.maxRunning;
  }

  /** Creates a `working` task for a call, durably (a `tasks/get` for it answers as soon as this returns). */
  create(callId: string, tool: string, abort: AbortController): TaskRecord {
    const now = new Date().toISOString();
    const task: TaskRecord = {
      taskId: `task_${randomBytes(12).toString('base64url')}`,
      callId,
      tool,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
    this.store.put(task);
    this.live.set(task.taskId, { abort, rounds: 0 });
    return task;
  }

  get(taskId: string): TaskRecord | undefined {
    return this.store.get(taskId);
  }

  /** The call behind a task ended: its result (a tool's own error is a `completed` task with `isError`), or a failure. */
  settle(taskId: string, outcome: { result: Record<string, unknown> } | { error: { code: number; message: string } }): void {
    const live = this.live.get(taskId);
    this.live.delete(taskId);
    live?.pending?.reject(new Error('the task ended'));
    const task = this.store.get(taskId);
    if (!task || isTerminal(task.status)) return; // cancelled first: it stays cancelled
    this.update(task, 'result' in outcome ? { status: 'completed', result: outcome.result } : { status: 'failed', error: outcome.error });
  }

  /**
   * Parks the task until its client answers every one of `requests` (`tasks/update`, one or several at a time):
   * the task is `input_required` meanwhile, listing what is still unanswered.
   */
  ask(taskId: string, requests: Record<string, unknown>): Promise<Record<string, unknown>> {
    const live = this.live.get(taskId);
    const task = this.store.get(taskId);
    if (!live || !task || isTerminal(task.status)) return Promise.reject(new Error('the task has ended'));
    if (live.pending) return Promise.reject(new Error('another round of the task is waiting for its answers'));
    // The client sees each key as `<round>:<key>` (a tool's keys hold no ':'): a late or repeated answer to an earlier
    // round never answers a later question that happens to use the same key.
    const round = ++live.rounds;
    const asked = Object.fromEntries(Object.entries(requests).map(([key, request]) => [`${round}:${key}`, request]));
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      live.pending = { requests: { ...asked }, answers: {}, resolve, reject };
      this.update(task, { status: 'input_required', inputRequests: { ...asked } });
    }).then((answers) => Object.fromEntries(Object.entries(answers).map(([key, answer]) => [key.slice(key.indexOf(':') + 1), answer])));
  }

  /**
   * A client's answers to a task's questions: those it was asked are taken (others ignored); when none is left
   * unanswered, the task works on. False when the task is unknown here.
   */
  answer(taskId: string, responses: Record<string, unknown>): boolean {
    const task = this.store.get(taskId);
    if (!task) return false;
    const pending = this.live.get(taskId)?.pending;
    if (!pending) return true; // nothing asked (or already ended): nothing to take
    let taken = false;
    for (const [key, response] of Object.entries(responses)) {
      if (!Object.hasOwn(pending.requests, key)) continue;
      pending.answers[key] = response;
      delete pending.requests[key];
      taken = true;
    }
    if (!taken) return true; // nothing it was asked: nothing changes (and nothing is written)
    if (Object.keys(pending.requests).length > 0) {
      this.update(task, { status: 'input_required', inputRequests: { ...pending.requests } });
      return true;
    }
    this.live.get(taskId)!.pending = undefined;
    this.update(task, { status: 'working', inputRequests: undefined });
    pending.resolve(pending.answers);
    return true;
  }

  /** Cancels a task: its call is aborted and the task is `cancelled` (a task already ended is left as it is). */
  cancel(taskId: string): boolean {
    const task = this.store.get(taskId);
    if (!task) return false;
    const live = this.live.get(taskId);
    this.live.delete(taskId);
    if (isTerminal(task.status)) return true;
    this.update(task, { status: 'cancelled', statusMessage: 'cancelled by the client', inputRequests: undefined });
    live?.pending?.reject(new Error('the task was cancelled'));
    live?.abort.abort(new Error('the task was cancelled'));
    return true;
  }

  private update(task: TaskRecord, change: Partial<Omit<TaskRecord, 'taskId'>> & { status: TaskStatus }): void {
    const next: TaskRecord = { ...task, ...change, lastUpdatedAt: new Date().toISOString() };
    for (const key of Object.keys(next) as (keyof TaskRecord)[]) if (next[key] === undefined) delete next[key];
    this.store.put(next);
  }
}

/** A task as `tasks/get` and a `CreateTaskResult` show it: no call id, no tool name (the client knows its call). */
export function taskView(task: TaskRecord): Record<string, unknown> {
  const { callId: _callId, tool: _tool, ...view } = task;
  return view;
}
