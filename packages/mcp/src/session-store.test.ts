import { describe, expect, it } from 'vitest';
import { SessionStore } from './session-store.js';

class FakeTransport {
  closed = false;
  async close() {
    this.closed = true;
  }
}

function store(limits: { idleTimeoutMs: number; maxSessions: number }) {
  let now = 0;
  const sessions = new SessionStore<FakeTransport>(limits, () => now);
  const open = (id: string) => {
    const transport = new FakeTransport();
    const reservation = sessions.reserve();
    if (!reservation) return undefined;
    reservation.fill(id, transport);
    return transport;
  };
  return {
    sessions,
    open,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe(SessionStore, () => {
  it('closes a session idle past the timeout, and keeps one in use', () => {
    const { sessions, open, advance } = store({ idleTimeoutMs: 1000, maxSessions: 10 });
    const idle = open('idle')!;
    const used = open('used')!;
    advance(600);
    const end = sessions.begin('used', true);
    advance(2000);
    sessions.sweep();
    expect(idle.closed).toBe(true);
    expect(sessions.get('idle')).toBeUndefined();
    expect(used.closed).toBe(false); // a request in progress (a running tool call) holds it
    end();
    advance(999);
    sessions.sweep();
    expect(used.closed).toBe(false);
    advance(1);
    sessions.sweep();
    expect(used.closed).toBe(true);
  });

  it('a standalone GET stream does not keep a session alive', () => {
    const { sessions, open, advance } = store({ idleTimeoutMs: 1000, maxSessions: 10 });
    const streaming = open('s')!;
    sessions.begin('s', false);
    advance(1000);
    sessions.sweep();
    expect(streaming.closed).toBe(true);
  });

  it('at the cap, evicts the least recently active idle session', () => {
    const { sessions, open, advance } = store({ idleTimeoutMs: 60_000, maxSessions: 2 });
    const a = open('a')!;
    advance(1);
    const b = open('b')!;
    advance(1);
    sessions.begin('a', false)(); // a was used after b: b is now the least recently active
    const c = open('c')!;
    expect([a.closed, b.closed, c.closed]).toEqual([false, true, false]);
    expect(sessions.size).toBe(2);
  });

  it('refuses a new session when every live one is busy, counting those being initialised', () => {
    const { sessions, open } = store({ idleTimeoutMs: 60_000, maxSessions: 2 });
    open('a');
    const endA = sessions.begin('a', true);
    const pending = sessions.reserve()!;
    expect(sessions.reserve()).toBeUndefined();
    pending.release();
    pending.release(); // releasing twice frees one place only
    const b = open('b')!;
    sessions.begin('b', true);
    expect(open('c')).toBeUndefined();
    endA();
    expect(open('c')).toBeDefined();
    expect(b.closed).toBe(false);
  });

  it('closes everything on closeAll', async () => {
    const { sessions, open } = store({ idleTimeoutMs: 60_000, maxSessions: 5 });
    const all = [open('a')!, open('b')!];
    await sessions.closeAll();
    expect(all.every((t) => t.closed)).toBe(true);
    expect(sessions.size).toBe(0);
  });
});
