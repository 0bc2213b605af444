import { spawn, type ChildProcess } from 'node:child_process';

/** The bash that reads command lines, and the longest it may take over one. */
const BASH = '/bin/bash';
const READ_TIMEOUT_MS = 5000;
/** The most of bash's message kept (its first line is all that is used). */
const MESSAGE_BYTES = 4096;

// The reader: a bash, one per process (per worker thread), started at the first check, that starts `bash -n` for
// each line it is sent and answers with its exit status and messages. A fork copies the forking process's page
// tables: ~20 ms for a server holding a few hundred MB (its event loop blocked meanwhile), ~1 ms for this small bash.
// Each line is sent as a number of its own, its length in bytes and the bytes (the C locale: `read -N` counts bytes);
// the answer carries the number back, and an answer whose number is not the line awaited is never taken for it. The
// checking bash starts with an empty environment (`exec -c`), in `/`, without start-up files, reading nothing, the
// line as its `-c` argument, as a bash started directly would. The reader reads from a pipe only this process holds:
// when this process ends, the reader ends.
const READER = `# toolwright syntax reader
LC_ALL=C
trap '' INT HUP QUIT PIPE
while IFS=' ' read -r number length; do
  IFS= read -r -d '' -N "$length" line || exit 1
  message=$(trap - INT HUP QUIT PIPE; exec -c "$1" --noprofile --norc -n -c "$line" bash 2>&1 >/dev/null </dev/null)
  status=$?
  message=\${message:0:${MESSAGE_BYTES}}
  printf '%s %s %s\\n%s' "$number" "$status" "\${#message}" "$message"
done`;

interface Check {
  command: string;
  resolve: (error: string | undefined) => void;
  /** Its number in the reader's answers. */
  number: number;
  /** Readers that ended before answering it, though not for its own sake (it goes to the next one, once). */
  lost: number;
}

interface Reader {
  child: ChildProcess;
  /** The checks sent and not yet answered, in order; the first is the one being read. */
  pending: Check[];
  received: Buffer;
  timer: NodeJS.Timeout | undefined;
  /** When the line now being read is due (`performance.now()`): an answer that comes later is not taken either. */
  deadline: number;
  /** Given up on (it took too long, or answered out of turn): nothing more it writes is read. */
  done: boolean;
}

let reader: Reader | undefined;
let timeoutMs = READ_TIMEOUT_MS;
let numbers = 0;

/**
 * bash's own syntax error for `command` (`syntax error near unexpected token ';;' (line 1)`), or
 * undefined when bash parses it. bash reads the line with `-n` (noexec: commands are read, never
 * run, so not even `set +n` takes effect), without start-up files, with an empty environment, in
 * `/`. The judge works on tree-sitter-bash's tree; this makes sure bash accepts the same line.
 * A bash that takes longer than 5 s over a line is ended (with the reader; the lines after it go to another).
 */
export function bashSyntaxError(command: string): Promise<string | undefined> {
  if (command.includes('\0')) return Promise.resolve('a command line cannot hold a NUL byte');
  return new Promise((resolve) => check({ command, resolve, number: 0, lost: 0 }));
}

function check(line: Check): void {
  const current = (reader ??= startReader());
  line.number = ++numbers;
  current.pending.push(line);
  current.child.ref();
  for (const stream of [current.child.stdin, current.child.stdout]) (stream as unknown as { ref?: () => void }).ref?.();
  current.child.stdin!.write(`${line.number} ${Buffer.byteLength(line.command)}\n${line.command}`);
  if (current.pending.length === 1) arm(current);
}

/** For tests: the reader's process id (undefined before the first check), and a shorter time per line. */
export function syntaxReaderForTests(): { pid: number | undefined; setTimeout(ms: number): void } {
  return { pid: reader?.child.pid, setTimeout: (ms) => (timeoutMs = ms) };
}

function startReader(): Reader {
  const child = spawn(BASH, ['--noprofile', '--norc', '-c', READER, 'toolwright-syntax', BASH], {
    stdio: ['pipe', 'pipe', 'ignore'],
    cwd: '/',
    env: {},
    detached: true,
  });
  const started: Reader = { child, pending: [], received: Buffer.alloc(0), timer: undefined, deadline: Infinity, done: false };
  child.stdout.on('data', (chunk: Buffer) => {
    if (started.done) return;
    started.received = Buffer.concat([started.received, chunk]);
    for (let answer = takeAnswer(started); answer !== undefined && !started.done; answer = takeAnswer(started)) {
      clearTimeout(started.timer);
      const line = started.pending[0];
      if (!line || answer.number !== line.number) {
        // Never written by the reader for the line awaited: it is given up on, the lines go to another.
        giveUp(started);
        return;
      }
      // Late, though its timer has not run yet (this process was busy, or not given the CPU): too late all the same,
      // whichever of the two the event loop comes to first.
      if (performance.now() > started.deadline) return tookTooLong(started);
      started.pending.shift();
      line.resolve(answer.status === 0 ? undefined : describe(answer.status, answer.message, line.command.includes('\n')));
      arm(started);
    }
  });
  child.stdin.on('error', () => undefined);
  // A reader that ended of itself (bash could not be started, or something killed it): the lines it was sent go
  // to the next one, once each.
  const ended = (reason: string) => {
    if (started.done) return;
    started.done = true;
    if (reader === started) reader = undefined;
    clearTimeout(started.timer);
    for (const line of started.pending.splice(0)) {
      if (reason.startsWith('spawn ')) line.resolve(`bash could not be started to check it (${reason})`);
      else if (++line.lost > 1) line.resolve(`bash ended before it had read it (${reason})`);
      else check(line);
    }
  };
  child.on('error', (error) => ended(error.message));
  child.on('exit', (code, signal) => ended(signal ?? `exit ${code}`));
  idle(started);
  return started;
}

/** Times the line now being read; with nothing to read, lets this process end without waiting for the reader. */
function arm(current: Reader): void {
  const first = current.pending[0];
  if (!first) return idle(current);
  current.deadline = performance.now() + timeoutMs;
  current.timer = setTimeout(() => tookTooLong(current), timeoutMs);
}

/** The line now being read is answered so; the reader and the bash reading it are ended, the lines after it go to another. */
function tookTooLong(current: Reader): void {
  current.pending.shift()?.resolve('bash took too long to read it');
  giveUp(current);
}

/** Nothing more the reader writes is read; it is ended (its process group), and its lines are sent to another. */
function giveUp(current: Reader): void {
  current.done = true;
  clearTimeout(current.timer);
  if (reader === current) reader = undefined;
  try {
    process.kill(-current.child.pid!, 'SIGKILL');
  } catch {
    current.child.kill('SIGKILL');
  }
  idle(current);
  for (const line of current.pending.splice(0)) check(line);
}

function idle(current: Reader): void {
  current.child.unref();
  for (const stream of [current.child.stdin, current.child.stdout]) (stream as unknown as { unref?: () => void }).unref?.();
}

/** The next whole answer in what the reader wrote (`<number> <status> <length>\n<message>`), taken off it. */
function takeAnswer(current: Reader): { number: number; status: number; message: string } | undefined {
  const newline = current.received.indexOf(0x0a);
  if (newline < 0) return undefined;
  const match = /^(\d+) (\d+) (\d+)$/.exec(current.received.subarray(0, newline).toString('latin1'));
  if (!match) return { number: -1, status: -1, message: '' };
  const end = newline + 1 + Number(match[3]);
  if (current.received.length < end) return undefined;
  const message = current.received.subarray(newline + 1, end).toString('utf8');
  current.received = current.received.subarray(end);
  return { number: Number(match[1]), status: Number(match[2]), message };
}

/** bash's first error; a bash that could not be started (126, 127 and no syntax error named) says so. */
function describe(status: number, message: string, multiline: boolean): string {
  const error = firstError(message, multiline);
  if (error !== undefined) return error;
  if (status === 126 || status === 127) return `bash could not be started to check it (${message.split('\n')[0]!.trim() || `exit status ${status}`})`;
  return `bash rejected it (exit status ${status})`;
}

/**
 * `bash: -c: line 2: syntax error near unexpected token `fi'` → "syntax error near unexpected token
 * `fi' (line 2)"; the line only for a command of several lines (bash counts one more at its end).
 */
function firstError(stderr: string, multiline: boolean): string | undefined {
  for (const line of stderr.split('\n')) {
    const match = /^bash: (?:-c: )?line (\d+): (.*)$/.exec(line);
    if (match && !match[2]!.startsWith('`') && !match[2]!.startsWith('warning:')) return multiline ? `${match[2]} (line ${match[1]})` : match[2];
  }
  return undefined;
}
