import path from 'node:path';
import { CoreToolError } from '../core-tool-error.js';
import { modelSize } from '../model-text/output-budget.js';
import { isWithin } from '../workspace/workspace-policy.js';
import type { CommandLauncher, LaunchSetting } from './shell-sandbox.js';
import { SessionShell, type SessionOutcome } from './session-shell.js';
import { toResult, type ShellResult } from './shell-result.js';

interface Session {
  shell: SessionShell;
  cwd: string;
  env: Record<string, string>;
  /** The variables this session's lines expand: its environment and the assignments judged so far. */
  variables: Map<string, string>;
  ranIn: CommandLauncher['ranIn'];
  limitsReached: () => string[];
  network: boolean | undefined;
  /** Lets go of what the session's sandbox holds, when the session shell ends. */
  release: () => void;
}

/** What a session's line becomes once judged: the script that runs and the assignments it makes. */
export interface JudgedLine {
  script: string;
  assignments: ReadonlyMap<string, string> | Iterable<[string, string]>;
}

/** What running one command in a session needs. */
export interface SessionRunOptions {
  env: () => Record<string, string>;
  launcher: (cwd: string, env: Record<string, string>) => Promise<CommandLauncher>;
  /** Where a new shell would run and with what network, asked before any launcher: a standing shell of that setting is used as it is. */
  setting: () => Promise<LaunchSetting>;
  judge: (cwd: string, env: Record<string, string>, variables: ReadonlyMap<string, string>) => Promise<JudgedLine>;
  killGraceMs: number;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
}

/**
 * The session backend's shells, one per session id (the least recently used is ended past
 * `maxSessions`): each keeps its working directory and judged variables between calls, and is started
 * by the launcher its first command was given (inside the sandbox, normally).
 */
export class ShellSessions {
  private readonly sessions = new Map<string, Session>();
  /** Per session, the command running or waiting last: the next one starts after it. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(
    private readonly root: string,
    private readonly maxSessions: number,
  ) {}

  async run(sessionId: string, options: SessionRunOptions): Promise<ShellResult> {
    // One command of a session at a time from the judge on: whether its shell has ended is known only once the
    // command before has finished, and a shell that ended is started afresh from a new plan, never its old one.
    const previous = this.turns.get(sessionId) ?? Promise.resolve();
    const turn = previous.then(() => this.runInTurn(sessionId, options, false));
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(sessionId, settled);
    void settled.then(() => {
      if (this.turns.get(sessionId) === settled) this.turns.delete(sessionId);
    });
    return turn;
  }

  private async runInTurn(sessionId: string, options: SessionRunOptions, retried: boolean): Promise<ShellResult> {
    const root = this.root;
    let session = this.sessions.get(sessionId);
    const env = session?.env ?? options.env();
    // A session's sandbox is made once: a call allowed the network where the session was not (or the
    // other way round) gets a session shell of its own setting, started afresh.
    // A shell that ended since (exit, a timeout) is started afresh with a new launcher too, not its first
    // one: the sandbox is planned again, so what changed in the workspace meanwhile is covered.
    // A shell that stands with the call's setting runs the line as it is: nothing is planned and no
    // other command is paused (only a launcher does that, and only a new shell needs one).
    const setting = await options.setting();
    const renewed = session !== undefined && (session.network !== setting.network || session.ranIn !== setting.ranIn || session.shell.ended);
    if (renewed) {
      end(session!);
      this.sessions.delete(sessionId);
      session = undefined;
    }
    // Judged before anything starts, from where the session stands (a new one stands at the root with its environment).
    const verdict = await options.judge(session?.cwd ?? root, env, session?.variables ?? new Map(Object.entries(env)));
    const started = session !== undefined;
    if (!session) {
      const launcher = await options.launcher(root, env);
      if (this.sessions.size >= this.maxSessions) {
        const [oldest, entry] = this.sessions.entries().next().value as [string, Session];
        end(entry);
        this.sessions.delete(oldest);
      }
      let shell: SessionShell;
      try {
        shell = new SessionShell({
          root,
          env,
          killGraceMs: options.killGraceMs,
          launch: launcher.launch,
          ...(launcher.prelude ? { prelude: launcher.prelude } : {}),
          ...(launcher.ready ? { onReady: launcher.ready } : {}),
          startOnce: launcher.ranIn === 'sandbox',
        });
      } catch (error) {
        launcher.release();
        throw error;
      }
      session = {
        shell,
        cwd: root,
        env,
        variables: new Map(Object.entries(env)),
        ranIn: launcher.ranIn,
        network: launcher.network,
        release: launcher.release,
        limitsReached: launcher.limitsReached ?? (() => []),
      };
    }
    this.sessions.delete(sessionId); // re-insert: most recently used last
    this.sessions.set(sessionId, session);
    // Values are substituted when the line is judged, so the session's own record of its variables
    // is what later lines expand (whether or not bash ran the assignment, both agree on the words).
    for (const [name, value] of verdict.assignments) session.variables.set(name, value);
    let outcome: SessionOutcome;
    try {
      outcome = await session.shell.run(verdict.script, {
        timeoutMs: options.timeoutMs,
        maxOutputBytes: options.maxOutputBytes,
        ...(options.signal ? { signal: options.signal } : {}),
        // Moved to the directory the line was judged from before every line (a restart if that is no longer it).
        resetTo: session.cwd,
      });
    } catch (error) {
      // A shell that could not be started (its sandbox refused) is let go of, with what its sandbox held.
      if (session.shell.ended || !started) {
        end(session);
        this.sessions.delete(sessionId);
      }
      throw error;
    }
    // It ended by itself since the check above (a process of its own killed it): started afresh from a new plan, once.
    if (outcome.ended && !retried) return this.runInTurn(sessionId, options, true);
    if (outcome.ended)
      throw new CoreToolError('sandbox_unavailable', 'The session shell ended before the command could start, twice; nothing ran. Run the command again.');
    if (outcome.cancelled)
      throw new CoreToolError('cancelled', 'The command was cancelled; the session shell was ended with its process tree (the next call starts a fresh one).');
    // A shell that left the workspace (e.g. `cd` with no argument goes to HOME) is moved back.
    const inside = outcome.cwd === root || isWithin(root, outcome.cwd);
    session.cwd = outcome.restarted ? root : inside ? outcome.cwd : root;
    const cwd = path.relative(root, session.cwd).split(path.sep).join('/') || '.';
    const reset = '[the working directory left the workspace and was reset to its root]';
    const result = toResult(outcome, modelSize(cwd) + (inside ? 0 : reset.length + 1));
    if (!inside) result.stderr += `${result.stderr && !result.stderr.endsWith('\n') ? '\n' : ''}${reset}`;
    if (outcome.restarted || outcome.timedOut) this.sessions.set(sessionId, { ...session, cwd: root, variables: new Map(Object.entries(session.env)) });
    const limitsReached = session.limitsReached();
    return {
      ...result,
      ...(limitsReached.length > 0 ? { limitsReached } : {}),
      cwd,
      sessionRestarted: renewed || outcome.restarted || outcome.timedOut,
      ranIn: session.ranIn,
    };
  }

  /** Ends every session shell and what it started. */
  dispose(): void {
    for (const session of this.sessions.values()) end(session);
    this.sessions.clear();
  }
}

/**
 * Ends a session shell with what it started, and lets go of what its sandbox held once the shell has
 * exited (and the launcher's release waits for the last of its processes): a process of the session
 * must never see a placeholder it had mounted go.
 */
function end(session: Session): void {
  void session.shell.dispose().then(session.release);
}
