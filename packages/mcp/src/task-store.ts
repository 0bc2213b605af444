import fs from 'node:fs';
import path from 'node:path';
import { acquireFileLock } from '@toolwright/executor';

// A task (MCP's Tasks extension, io.modelcontextprotocol/tasks) is a call that outlives the request that started it:
// the client polls `tasks/get` for its status and, once it ends, its result. What is known of each task is kept here —
// in memory, or in a JSON Lines file that outlives the process, so that after a restart a client asking about a task
// that was running hears that it was interrupted instead of "unknown task".

/** A task's status, as the Tasks extension names them. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** What a client is told of a task (`tasks/get`), less the `resultType`. */
export interface TaskRecord {
  taskId: string;
  /** The executor's id of the call the task runs: its audit records carry it. */
  callId: string;
  tool: string;
  status: TaskStatus;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  statusMessage?: string;
  /** `completed`: the call's result, as `tools/call` would have returned it. */
  result?: Record<string, unknown>;
  /** `failed`: why, as a JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
  /** `input_required`: what the client is asked and has not answered yet, by key. */
  inputRequests?: Record<string, unknown>;
}

/** Where tasks are kept; `put` is durable when it returns (a client may ask about the task at once). */
export interface TaskStore {
  get(taskId: string): TaskRecord | undefined;
  put(task: TaskRecord): void;
}

/** Below this many lines a task file is never compacted. */
const COMPACT_AT = 1000;

const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** Whether a task has ended (its status changes no more). */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** Whether a task has outlived its `ttlMs` (it is forgotten then). */
function expired(task: TaskRecord, now: number): boolean {
  return Date.parse(task.createdAt) + task.ttlMs < now;
}

/** Tasks in this process's memory: gone with it. */
export class MemoryTaskStore implements TaskStore {
  protected readonly tasks = new Map<string, TaskRecord>();

  /** @param maxKept The most tasks kept (default 10,000): past it the oldest finished ones are forgotten. */
  constructor(protected readonly maxKept = 10_000) {}

  get(taskId: string): TaskRecord | undefined {
    const task = this.tasks.get(taskId);
    if (task && expired(task, Date.now())) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  put(task: TaskRecord): void {
    this.tasks.set(task.taskId, { ...task });
    // Tasks are kept in the order they were created: the expired ones are at the front.
    const now = Date.now();
    for (const [taskId, known] of this.tasks) {
      if (!expired(known, now)) break;
      this.tasks.delete(taskId);
    }
    // Past the cap, the oldest finished tasks are forgotten first (a running task is never dropped).
    if (this.tasks.size > this.maxKept)
      for (const [taskId, known] of this.tasks) {
        if (this.tasks.size <= this.maxKept) break;
        if (isTerminal(known.status)) this.tasks.delete(taskId);
      }
  }
}

/** The file of tasks is another live process's (see `FileTaskStore`). */
export class TaskFileInUseError extends Error {
  constructor(
    readonly file: string,
    readonly pid: number,
    readonly hostname: string,
  ) {
    super(`${file} holds the tasks of process ${pid} on ${hostname}, which is still running; give this server its own file`);
  }
}

/**
 * Tasks kept in a JSON Lines file (one line per change, written synchronously: a task exists once `put` returns). On
 * opening, the file is read back: a task that was not finished when the process stopped is `failed` — interrupted —
 * and one past its `ttlMs` is dropped; the file is then rewritten with what is left. One process at a time keeps its
 * tasks in a file (`<file>.lock` names it): opening one a live process holds throws `TaskFileInUseError`.
 */
export class FileTaskStore extends MemoryTaskStore {
  private fd: number;
  private lines = 0;
  private closed = false;
  private readonly release: () => void;

  constructor(
    readonly file: string,
    maxKept?: number,
  ) {
    super(maxKept);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.release = acquireFileLock(file, { locked: (owner) => new TaskFileInUseError(file, owner.pid, owner.hostname) });
    const now = Date.now();
    if (fs.existsSync(file)) {
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        const task = parseTask(line);
        if (task) this.tasks.set(task.taskId, task);
      }
    }
    const at = new Date(now).toISOString();
    for (const [taskId, task] of this.tasks) {
      if (expired(task, now)) this.tasks.delete(taskId);
      else if (!isTerminal(task.status)) {
        const { inputRequests: _asked, ...rest } = task;
        this.tasks.set(taskId, {
          ...rest,
          status: 'failed',
          lastUpdatedAt: at,
          statusMessage: 'interrupted: the server stopped while the task was running',
          error: { code: -32603, message: 'interrupted: the server stopped while the task was running; call the tool again' },
        });
      }
    }
    const kept = [...this.tasks.values()].map((task) => `${JSON.stringify(task)}\n`).join('');
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, kept, { mode: 0o600 });
    fs.renameSync(temporary, file);
    this.fd = fs.openSync(file, 'a', 0o600);
    this.lines = this.tasks.size;
  }

  override put(task: TaskRecord): void {
    if (this.closed) return; // the server is shutting down: what a task ends with now is not kept
    super.put(task);
    fs.writeSync(this.fd, `${JSON.stringify(task)}\n`);
    fs.fsyncSync(this.fd);
    // Each change is a line: when the lines outnumber the tasks kept four to one, the file is rewritten with one each.
    if (++this.lines > Math.max(COMPACT_AT, 4 * this.tasks.size)) this.compact();
  }

  /** Rewrites the file with one line per task kept (atomically: a crash leaves the old file or the new one). */
  private compact(): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, [...this.tasks.values()].map((task) => `${JSON.stringify(task)}\n`).join(''), { mode: 0o600 });
    const written = fs.openSync(temporary, 'r');
    fs.fsyncSync(written);
    fs.closeSync(written);
    fs.renameSync(temporary, this.file);
    fs.closeSync(this.fd);
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.lines = this.tasks.size;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
    this.release();
  }
}

/** A task line read back, or undefined for a line that is not one (a torn last line, an edit by hand). */
function parseTask(line: string): TaskRecord | undefined {
  if (line.trim() === '') return undefined;
  try {
    const task = JSON.parse(line) as Partial<TaskRecord>;
    const fields = [task.taskId, task.callId, task.tool, task.status, task.createdAt, task.lastUpdatedAt];
    if (fields.some((field) => typeof field !== 'string') || typeof task.ttlMs !== 'number' || typeof task.pollIntervalMs !== 'number') return undefined;
    return task as TaskRecord;
  } catch {
    return undefined;
  }
}
