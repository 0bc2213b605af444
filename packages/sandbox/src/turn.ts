import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

// The hosts' turn to make a sandbox (`hosts.ts` says why they take turns) is a socket bound to a name in
// Linux's abstract socket namespace: the kernel lets one process bind a name at a time and frees it the
// moment that process exits, however it exits. A lock file or link must instead be taken over from a holder
// that died, and two hosts taking over at once both held it (found by an eighth pass: 4 in 300). Waiting
// hosts connect to the holder and are woken when it lets go (the connection closes), and a host that gave
// the turn back while others waited lets one of them have it before taking it again, so a host making
// sandboxes back to back cannot keep the others waiting. The name carries a secret kept in the hosts' folder,
// which only this user can read: other users cannot name it.

/** The longest a host waits for the turn before its command is refused. */
const TURN_WAIT_MS = 30_000;
/** How long a host that gave the turn back to waiting hosts leaves it to them before taking it again. */
const YIELD_MS = 200;

interface Holding {
  server: net.Server;
  /** Connections of hosts waiting for it (and of this process's own probes, counted in `ownConnections`). */
  waiting: Set<net.Socket>;
}

/** The turn while a caller of this process holds it: the bound socket. */
let holding: Holding | undefined;
/** Callers of this process waiting while another of its callers holds the turn: handed it over (true) or woken to contend (false). */
const queued: ((handedOver: boolean) => void)[] = [];
/** This process's own connections to the turn (waiting or probing), which are no other host waiting. */
let ownConnections = 0;
/** Until when this process leaves the turn to the hosts that were waiting when it gave it back. */
let yieldUntil = 0;
let turnName: string | undefined;

/**
 * Waits for this host's turn to make a sandbox (one host of the user's at a time) and takes it; the
 * returned function gives it back. Rejects when another host has held it for 30 seconds, naming it.
 * Callers within one process queue and are handed the turn in order while no other host waits for it.
 */
export async function takeTurn(shared: string, self: string): Promise<() => void> {
  const name = nameOfTurn(shared);
  const started = Date.now();
  if (!holding && Date.now() < yieldUntil) await leaveToOthers(name);
  for (;;) {
    if (holding) {
      if (await new Promise<boolean>((resolve) => queued.push(resolve))) return release(holding, shared, self);
      continue;
    }
    const taken = bindNow(name) ?? (await bind(name));
    if (taken) return hold(taken, shared, self);
    const left = TURN_WAIT_MS - (Date.now() - started);
    if (left <= 0) {
      const holder = readHolder(shared);
      throw new Error(`another Toolwright process (${holder ?? 'unknown'}) has been making a sandbox for ${TURN_WAIT_MS / 1000} s`);
    }
    if (!holding) await waitForHolder(name, Math.min(left, 1000));
  }
}

/**
 * Takes the turn if it is free now, without waiting (at exit, where nothing can be waited for); the returned
 * function gives it back.
 */
export function tryTakeTurn(shared: string, self: string): (() => void) | undefined {
  if (holding) return undefined;
  const taken = bindNow(nameOfTurn(shared));
  return taken ? hold(taken, shared, self) : undefined;
}

/** Whether a caller of this process holds the turn now. */
export function holdsTurn(): boolean {
  return holding !== undefined;
}

function hold(taken: Holding, shared: string, self: string): () => void {
  holding = taken;
  return release(taken, shared, self);
}

function release(taken: Holding, shared: string, self: string): () => void {
  writeHolder(shared, self);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    giveBack(taken);
  };
}

/**
 * Hands the turn to the next caller of this process while no other host waits; otherwise lets go of it (the
 * name is free once the socket is closed), wakes this process's callers to contend with the others, and
 * leaves it to those others for a moment before taking it again.
 */
function giveBack(taken: Holding): void {
  const othersWait = taken.waiting.size > ownConnections;
  if (queued.length > 0 && !othersWait) return queued.shift()!(true);
  if (holding === taken) holding = undefined;
  if (othersWait) yieldUntil = Date.now() + YIELD_MS;
  taken.server.close();
  for (const socket of taken.waiting) socket.destroy();
  for (const wake of queued.splice(0)) wake(false);
}

function turnServer(): Holding {
  const server = net.createServer({ pauseOnConnect: true });
  const waiting = new Set<net.Socket>();
  server.on('connection', (socket) => {
    socket.unref();
    waiting.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => waiting.delete(socket));
  });
  return { server, waiting };
}

/**
 * Binds the turn's name at once: a local socket's name is bound before `listen` returns (only the events come
 * later), so `listening` already says whether it was. Undefined when it was not (held, or an error `bind` words).
 */
function bindNow(name: string): Holding | undefined {
  const taken = turnServer();
  taken.server.on('error', () => undefined);
  taken.server.listen(name);
  if (!taken.server.listening) {
    taken.server.close();
    return undefined;
  }
  taken.server.unref();
  return taken;
}

/** Binds the turn's name: the turn, or undefined when another process holds it. */
function bind(name: string): Promise<Holding | undefined> {
  return new Promise((resolve, reject) => {
    const { server, waiting } = turnServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(undefined);
      else reject(new Error(`the hosts' turn to make a sandbox cannot be taken: ${error.message}`, { cause: error }));
    });
    server.listen(name, () => {
      server.unref();
      resolve({ server, waiting });
    });
  });
}

/** Waits until the holder lets go of the turn (or dies), or `ms` have passed. */
function waitForHolder(name: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(name);
    let connected = false;
    socket.on('connect', () => {
      connected = true;
      ownConnections++;
    });
    const done = () => {
      clearTimeout(timer);
      if (connected) ownConnections--;
      connected = false;
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, ms);
    // Refused: it was given back between the two steps. Closed: given back now.
    socket.on('error', done);
    socket.on('close', done);
  });
}

/** Leaves the turn to the hosts that waited for it, until one of them holds it (or the time is up). */
async function leaveToOthers(name: string): Promise<void> {
  while (Date.now() < yieldUntil) {
    if (await someoneHolds(name)) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  yieldUntil = 0;
}

function someoneHolds(name: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(name);
    socket.on('connect', () => {
      ownConnections++;
      socket.once('close', () => ownConnections--);
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** The turn's abstract socket name, with the secret kept in the hosts' folder (made once, atomically). */
function nameOfTurn(shared: string): string {
  if (turnName) return turnName;
  const file = path.join(shared, 'turn-name');
  let secret = readSecret(file);
  if (!secret) {
    const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, crypto.randomBytes(16).toString('hex'), { mode: 0o600 });
    try {
      fs.linkSync(draft, file); // refused when another host made it first: theirs is read
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(draft);
    }
    secret = readSecret(file);
  }
  if (!secret) throw new Error(`${file}, the name of the hosts' turn, is damaged; remove it`);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return (turnName = `\0toolwright-turn-${uid}-${secret}`);
}

function readSecret(file: string): string | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return /^[0-9a-f]{32}$/.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Who holds the turn, for the message of a host that waited too long (it decides nothing). */
function writeHolder(shared: string, self: string): void {
  try {
    fs.writeFileSync(path.join(shared, 'turn-holder'), self, { mode: 0o600 });
  } catch {
    // only the message loses its name
  }
}

function readHolder(shared: string): string | undefined {
  try {
    return fs.readFileSync(path.join(shared, 'turn-holder'), 'utf8');
  } catch {
    return undefined;
  }
}
