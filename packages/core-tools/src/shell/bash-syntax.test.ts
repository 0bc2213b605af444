import { spawnSync } from 'node:child_process';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { bashSyntaxError, syntaxReaderForTests } from './bash-syntax.js';

/** What `bash -n` started directly says of a line: the reader must answer the same. */
function direct(command: string): number | null {
  return spawnSync('/bin/bash', ['--noprofile', '--norc', '-n', '-c', command, 'bash'], { env: {}, cwd: '/' }).status;
}

/**
 * Command lines as a model writes them, hostile ones included: bash's metacharacters, quotes, expansions, heredocs,
 * keywords out of place, backslashes, newlines and carriage returns, control bytes, non-ASCII text and lone surrogates.
 */
const PIECE = fc.oneof(
  fc.constantFrom(';', ';;', '&', '&&', '|', '||', '(', ')', '{', '}', '<', '>', '>&', '<<', '`', '$(', '${', '$((', '))', '"', "'", '\\', '\n', '\r', ' '),
  fc.constantFrom('if', 'then', 'fi', 'do', 'done', 'case', 'esac', 'in', 'for', 'while', 'function', '!', 'time', "<<'E'\nx\nE\n", 'E'),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 3 }).map((text) => text.replace(/\0/g, '')),
  fc.constantFrom('echo', 'ls', 'cat', 'x=1', '$x', '*', '~'),
);
const COMMAND_LINE = fc.array(PIECE, { maxLength: 12 }).map((pieces) => pieces.join(''));

const LINES = [
  'ls -la',
  'ls ;; pwd',
  'if true; then echo x; fi',
  'if true; then echo x',
  'echo "unterminated',
  "cat <<'EOF'\nbody ü ∑\nEOF",
  'for i in 1 2; do\n  echo $i\ndone\ndone',
  'echo $((1 +))',
  'echo ${x',
  'f() { echo; }; f',
  '   ',
  "echo 'a\nb' | wc -l",
  'case x in x) echo;; esac',
  'case x in x) echo;; esac;;',
  '\\',
  'echo é€😀 `',
  '',
  'ls\n',
  'echo \x01\x7f\x1b\xff',
  'echo \ud800 ;;',
  'echo $( ls ;; )',
  'echo "a\\\nb"',
  `echo ${'x'.repeat(131_070)}`,
  `echo ${'x'.repeat(131_072)}`,
];

describe("bash's own reading of a command line, through the reader", () => {
  afterEach(() => syntaxReaderForTests().setTimeout(5000));

  it.for(LINES)('agrees with bash started directly: %j', async (line) => {
    const error = await bashSyntaxError(line);
    expect(error === undefined, String(error)).toBe(direct(line) === 0);
  });

  it("words bash's message, with the line for a command of several lines", async () => {
    expect(await bashSyntaxError('ls ;; pwd')).toBe("syntax error near unexpected token `;;'");
    expect(await bashSyntaxError('for i in 1; do\n echo\ndone\ndone')).toBe("syntax error near unexpected token `done' (line 4)");
  });

  it('answers each of many lines sent at once with its own verdict, in one reader', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? `echo ${i} ;;` : `echo ${'é'.repeat(i)} ${i}`));
    const verdicts = await Promise.all(lines.map((line) => bashSyntaxError(line)));
    expect(verdicts.map((v) => v !== undefined)).toEqual(lines.map((_, i) => i % 3 === 0));
    const pid = syntaxReaderForTests().pid;
    await bashSyntaxError('true');
    expect(syntaxReaderForTests().pid).toBe(pid);
  });

  it('starts a new reader when the one it had was killed, and loses no line sent meanwhile', async () => {
    await bashSyntaxError('true');
    const pid = syntaxReaderForTests().pid!;
    process.kill(-pid, 'SIGKILL');
    const verdicts = await Promise.all([bashSyntaxError('echo ;;'), bashSyntaxError('echo ok')]);
    expect(verdicts[0]).toMatch(/unexpected token/);
    expect(verdicts[1]).toBeUndefined();
    expect(syntaxReaderForTests().pid).not.toBe(pid);
  });

  it('gives up on a line bash takes too long over, saying so, and reads the next lines in a new reader', async () => {
    syntaxReaderForTests().setTimeout(1);
    // 100 kB (an argument may hold 128 kB): ~10 ms for bash to read and check, never within 1 ms. A 3 kB line took
    // ~3 ms, and a fast run of Node 22 had its answer within the millisecond. An answer that comes late is not taken
    // though it is read before the timer runs (a busy machine's run took one so).
    const verdicts = await Promise.all([bashSyntaxError(`echo ${'x'.repeat(100_000)}`), bashSyntaxError('echo ;;')]);
    expect(verdicts[0]).toBe('bash took too long to read it');
    syntaxReaderForTests().setTimeout(5000);
    expect(await bashSyntaxError('echo ;;')).toMatch(/unexpected token/);
    expect(await bashSyntaxError('echo fine')).toBeUndefined();
  });

  it('agrees with bash started directly on generated command lines (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(COMMAND_LINE, { minLength: 1, maxLength: 8 }), async (lines) => {
        // Sent at once: each answer must be its own line's.
        const verdicts = await Promise.all(lines.map((line) => bashSyntaxError(line)));
        verdicts.forEach((verdict, i) => expect(verdict === undefined, `${JSON.stringify(lines[i])}: ${verdict}`).toBe(direct(lines[i]!) === 0));
      }),
      { numRuns: 60 },
    );
  });

  it("gives no line another line's answer whenever the event loop runs late past a deadline (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(COMMAND_LINE, fc.constantFrom('true', 'echo ;;', 'fi', 'echo ok')), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 20, max: 120 }),
        fc.integer({ min: 0, max: 250 }),
        async (lines, deadline, late) => {
          syntaxReaderForTests().setTimeout(deadline);
          const verdicts = Promise.all(lines.map((line) => bashSyntaxError(line)));
          // The event loop held: answers may be in the pipe when the timer runs, before they are read.
          for (const end = Date.now() + late; Date.now() < end;);
          (await verdicts).forEach((verdict, i) => {
            if (verdict === 'bash took too long to read it') return;
            expect(verdict === undefined, `${JSON.stringify(lines[i])}: ${verdict}`).toBe(direct(lines[i]!) === 0);
          });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('never gives a line the answer meant for the one before, when the answer comes after its deadline', async () => {
    syntaxReaderForTests().setTimeout(100);
    await bashSyntaxError('true');
    const verdicts = Promise.all(['true', 'echo ;;', 'fi', 'echo ok'].map((line) => bashSyntaxError(line)));
    // The event loop held past the deadline: the answers are in the pipe when the timer runs, before they are read.
    for (const end = Date.now() + 400; Date.now() < end;);
    const [first, second, third, fourth] = await verdicts;
    expect([undefined, 'bash took too long to read it']).toContain(first);
    expect(second).toBe("syntax error near unexpected token `;;'");
    expect(third).toBe("syntax error near unexpected token `fi'");
    expect(fourth).toBeUndefined();
  });

  it("names bash's syntax error inside a command substitution (bash exits 127 for it), not a bash that could not start", async () => {
    expect(await bashSyntaxError('echo $( ls ;; )')).toBe("syntax error near unexpected token `;;'");
  });

  it('refuses a NUL byte, which no command line can hold', async () => {
    expect(await bashSyntaxError('echo a\0b')).toBe('a command line cannot hold a NUL byte');
  });

  it('lets the process end while the reader is idle (the built module, as a server loads it)', () => {
    const built = path.join(import.meta.dirname, '..', '..', 'dist', 'shell', 'bash-syntax.js');
    const script = `require(${JSON.stringify(built)}).bashSyntaxError('ls ;;').then((error) => console.log(error))`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(result.stdout.trim()).toBe("syntax error near unexpected token `;;'");
    expect(result.signal).toBeNull();
  });
});
