import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HELPER_ENV, systemProgram } from './system-programs.js';

// The hosts' turn to make a sandbox (`hosts.ts` says why they take turns) is an exclusive `flock` on a file in
// the hosts' folder, which only this user can open and no sandbox sees. The kernel grants it to one holder at a
// time, wakes the waiting hosts when it is let go of, and lets go of it the moment its holder dies, however it
// dies. Rejected before it (found by an eighth and a ninth pass): a lock file or link, which must be taken over
// from a holder that died (two waiting hosts took it over at once), and a socket name in the abstract
// namespace, which lives in a network namespace — a command granted the network read its name in
// `/proc/net/unix` and held the turn from every host, and a host in another network namespace held it at once.
//
// Node has no `flock`, so a keeper holds it: a bash, one per host, started at the first turn, that holds the
// file open and locks it when told (`flock(1)` from util-linux on its descriptor: the lock belongs to the open
// file, which the keeper keeps) and lets go of it by closing the file and opening it afresh (no program to start:
// the lock dies with the last descriptor of the open file, and the next one is of whatever file has that name now). It reads from a pipe only this process holds: when this process ends,
// however it ends, the pipe closes, the keeper exits and the lock is gone. It ignores the terminal's signals and
// sits in a process group of its own, so a Ctrl-C that stops the host does not end the keeper first.
const KEEPER = `# toolwright turn keeper
trap '' INT TERM HUP QUIT PIPE
exec 9>>"$1" || exit 1
while read -r op; do
  case "$op" in
    take) if "$3" -x -w "$2" 9; then echo taken; else echo "failed $?"; fi ;;
    give) exec 9>&- 9>>"$1" || exit 1 ;;
  esac
done`;

/** The longest a host waits for the turn before its command is refused. */
const TURN_WAIT_SECONDS = 30;

interface Keeper {
  child: ChildProcess;
  /** The answers to `take` still awaited, in order. */
  answers: ((line: string) => void)[];
}

let keeper: Keeper | undefined;
/** This process's callers take turns among themselves first: one of them asks the keeper at a time. */
let local: Promise<void> = Promise.resolve();
/** Whether a caller of this process holds the turn now. */
let held = false;

/**
 * Waits for this host's turn to make a sandbox (one host of the user's at a time) and takes it; the
 * returned function gives it back. Rejects when another host has held it for 30 seconds, naming it.
 */
export async function takeTurn(shared: string, self: string): Promise<() => void> {
  let done!: () => void;
  const previous = local;
  local = new Promise<void>((resolve) => (done = resolve));
  await previous;
  try {
    const answer = await ask(shared);
    if (answer !== 'taken') {
      const holder = readHolder(shared);
      throw new Error(
        answer === 'failed 1'
          ? `another Toolwright process (${holder ?? 'unknown'}) has been making a sandbox for ${TURN_WAIT_SECONDS} s`
          : `the hosts' turn to make a sandbox cannot be taken (${answer}; flock from util-linux is needed)`,
      );
    }
  } catch (error) {
    done();
    throw error;
  }
  held = true;
  writeHolder(shared, self);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    held = false;
    tell('give');
    done();
  };
}

/** Whether a caller of this process holds the turn now. */
export function holdsTurn(): boolean {
  return held;
}

/** Asks the keeper (started on first use) for the turn; its answer line. */
function ask(shared: string): Promise<string> {
  const current = keeper ?? (keeper = startKeeper(path.join(shared, 'turn.lock')));
  return new Promise((resolve) => {
    current.answers.push(resolve);
    current.child.ref();
    current.child.stdin!.write('take\n');
  });
}

function tell(op: string): void {
  keeper?.child.stdin!.write(`${op}\n`);
}

function startKeeper(lock: string): Keeper {
  // `flock` from the system's program folders, never through PATH (a workspace's node_modules/.bin comes first under
  // npx), and bash without start-up files or an inherited environment (BASH_ENV).
  const flock = systemProgram('flock') ?? 'flock-not-installed';
  const child = spawn('/bin/bash', ['--noprofile', '--norc', '-c', KEEPER, 'toolwright-turn', lock, String(TURN_WAIT_SECONDS), flock], {
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true,
    env: HELPER_ENV,
  });
  const started: Keeper = { child, answers: [] };
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      started.answers.shift()?.(line);
      if (started.answers.length === 0) child.unref();
    }
  });
  child.stdin.on('error', () => undefined);
  // A keeper that ended (it could not open the file, or was killed) answers nothing more: the next turn starts another.
  const ended = (reason: string) => {
    if (keeper === started) keeper = undefined;
    for (const answer of started.answers.splice(0)) answer(`the keeper ended: ${reason}`);
  };
  child.on('error', (error) => ended(error.message));
  child.on('exit', (code, signal) => ended(signal ?? `exit ${code}`));
  // Idle, neither it nor its pipes keep this process alive.
  for (const stream of [child.stdin, child.stdout] as const) (stream as unknown as { unref?: () => void }).unref?.();
  child.unref();
  return started;
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
