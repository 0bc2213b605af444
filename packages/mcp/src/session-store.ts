/** How long sessions live and how many there may be (each holds a protocol server, ~30 KiB). */
export interface SessionLimits {
  /** A session with no request in progress for this long is closed (its client gets 404 and starts a new one). */
  idleTimeoutMs: number;
  /** Most live sessions, counting those being initialised. */
  maxSessions: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleTimeoutMs: 10 * 60_000, maxSessions: 100 };

interface Closable {
  close(): Promise<void>;
}

interface Entry<T> {
  transport: T;
  lastActive: number;
  /** Requests in progress that keep the session alive (POST and DELETE; not a standalone GET stream). */
  busy: number;
}

/** Room for one session being initialised: filled with its transport, or released when initialisation fails. */
export interface SessionReservation<T> {
  fill(id: string, transport: T): void;
  release(): void;
}

/**
 * Live sessions by id, least recently active first. Idle sessions are closed after `idleTimeoutMs`
 * (a client that never sends DELETE no longer keeps one forever). At `maxSessions`, a new session
 * evicts the least recently active idle one; when every session has a request in progress, the new
 * one is refused (the caller answers 503). Eviction rather than refusal means a flood of
 * unauthenticated initialize requests cannot lock real clients out for the idle timeout: an evicted
 * client gets 404 and starts a new session, as the protocol asks.
 */
export class SessionStore<T extends Closable> {
  private readonly sessions = new Map<string, Entry<T>>();
  private pending = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => this.sweep(), Math.max(50, Math.min(limits.idleTimeoutMs / 2, 30_000)));
    this.timer.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): T | undefined {
    return this.sessions.get(id)?.transport;
  }

  /** Room for a new session, evicting the least recently active idle one when full; undefined when every session is busy. */
  reserve(): SessionReservation<T> | undefined {
    this.sweep();
    if (this.sessions.size + this.pending >= this.limits.maxSessions) {
      const victim = [...this.sessions].find(([, entry]) => entry.busy === 0);
      if (!victim) return undefined;
      this.close(victim[0]);
    }
    this.pending++;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      this.pending--;
      return true;
    };
    return {
      fill: (id, transport) => {
        if (settle()) this.sessions.set(id, { transport, lastActive: this.now(), busy: 0 });
      },
      release: () => {
        settle();
      },
    };
  }

  /** Notes a request on the session; call the result when it ends. `holds` keeps the session from idling meanwhile. */
  begin(id: string, holds: boolean): () => void {
    const entry = this.touch(id);
    if (!entry) return () => {};
    if (holds) entry.busy++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (holds) entry.busy--;
      this.touch(id);
    };
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  /** Closes every session idle for longer than the timeout. */
  sweep(): void {
    const cutoff = this.now() - this.limits.idleTimeoutMs;
    for (const [id, entry] of [...this.sessions]) {
      if (entry.busy === 0 && entry.lastActive <= cutoff) this.close(id);
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    const transports = [...this.sessions.values()].map((entry) => entry.transport);
    this.sessions.clear();
    await Promise.all(transports.map((transport) => transport.close().catch(() => undefined)));
  }

  /** Moves the session to the most recently active end. */
  private touch(id: string): Entry<T> | undefined {
    const entry = this.sessions.get(id);
    if (!entry) return undefined;
    entry.lastActive = this.now();
    this.sessions.delete(id);
    this.sessions.set(id, entry);
    return entry;
  }

  private close(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    void entry.transport.close().catch(() => undefined);
  }
}
