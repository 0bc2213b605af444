import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { closeLaunchDescriptors, HELPER_ENV, launchStdio, systemProgram } from '@toolwright/sandbox';
import { writeInput } from '../shell/run-process.js';
import { openCheckedFile } from '../workspace/confined-file.js';
import { STATUS_OFFSET, type SearchSandbox } from './search-sandbox.js';
import { ignoresCase, MAX_MATCHED_LINES, type MatchedLine, type MatchLines, type SearchFindings, type SearchQuery } from './search-query.js';

let detected: { version: string } | false | undefined;

let binary: string | undefined;

/**
 * The version line (`ripgrep 14.1.0`) of the ripgrep in the system's program folders, if the machine has one; asked
 * once. Never looked up on PATH: `npx`/`npm run` put the workspace's node_modules/.bin first, where a command could
 * plant an `rg` the host would run (found by a tenth pass).
 */
export function ripgrepVersion(): string | undefined {
  if (detected === undefined) {
    binary = systemProgram('rg');
    const probe = binary
      ? spawnSync(binary, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000, env: HELPER_ENV })
      : undefined;
    const first = probe?.stdout?.split('\n')[0] ?? '';
    detected = probe?.status === 0 && /^ripgrep \d/.test(first) ? { version: first } : false;
  }
  return detected ? detected.version : undefined;
}

/** The ripgrep binary (an absolute path in the system's program folders), if the machine has one. */
export function findRipgrep(): string | false {
  return ripgrepVersion() !== undefined && binary !== undefined ? binary : false;
}

/**
 * The ripgrep engine, configured to select exactly the files the built-in engine does: hidden
 * files included, .git skipped, .gitignore honoured with or without a repository, no global,
 * parent, .ignore or .rgignore files, symlinks not followed, the same size cap; lines are reported
 * as the bytes of the file without their line ending, as the built-in engine reports them.
 * Each line carries its byte offset, for `confirmReportedLines`. `exclusions` (`ripgrepExclusions`)
 * keep it out of what the workspace hides.
 * ripgrep runs only inside the kernel sandbox (`SearchSandbox`: a reader's view of the workspace, the
 * shell's limits), never on the host: it opens what the workspace names by path, following links (a
 * `.gitignore` linked to `/dev/zero` or to a file outside, found by a twelfth pass). Resolves undefined
 * when no sandbox can be made, when a `.gitignore` is not a plain file within the built-in engine's cap,
 * when ripgrep cannot run the pattern (its regex dialect differs) or did not finish, so the caller falls
 * back to the built-in engine. What it reports is still only a claim, which `confirmReportedLines`
 * checks. ripgrep is stopped once it has reported `MAX_MATCHED_LINES` lines (`linesCapped`).
 */
export async function ripgrepSearch(
  binary: string,
  root: string,
  query: SearchQuery,
  sandbox: SearchSandbox,
  signal?: AbortSignal,
  exclusions: readonly string[] = [],
): Promise<SearchFindings | undefined> {
  const args = [
    '--no-heading',
    '--with-filename',
    '--line-number',
    '--byte-offset',
    '--null',
    '--color',
    'never',
    '--hidden',
    '--no-require-git',
    '--no-ignore-global',
    '--no-ignore-parent',
    '--no-ignore-dot',
    '--no-ignore-exclude',
    '--no-config',
    '--max-filesize',
    String(query.maxFileBytes),
    '-g',
    '!.git',
    '-g',
    '!.toolwright',
    ...exclusions,
    ignoresCase(query) ? '--ignore-case' : '--case-sensitive',
    ...(query.literal ? ['--fixed-strings'] : []),
    ...query.include.map((g) => `-g${g}`),
    ...query.exclude.map((g) => `-g!${g}`),
    '--regexp',
    query.pattern,
    './',
  ];
  const run = await sandbox.start(binary, args, root);
  if (!run) return undefined;
  return new Promise((resolve, reject) => {
    const { launch } = run;
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(launch.file, launch.args, {
        cwd: '/',
        stdio: launchStdio(launch, ['ignore', 'pipe', 'pipe', 'ignore']),
        env: HELPER_ENV,
        ...(signal ? { signal } : {}),
      }) as ChildProcessByStdio<null, Readable, Readable>;
    } catch (error) {
      run.release();
      throw error;
    } finally {
      closeLaunchDescriptors(launch); // the child holds its own copies
    }
    writeInput(child, launch);
    const found: MatchLines = new Map();
    let reported = 0;
    let linesCapped = false;
    let pending = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (linesCapped) return;
      pending += chunk;
      let start = 0;
      for (;;) {
        // path NUL line-number ':' byte-offset ':' text '\n': a path may hold newlines (never NUL), the text holds none.
        const nul = pending.indexOf('\0', start);
        const newline = nul === -1 ? -1 : pending.indexOf('\n', nul);
        if (newline === -1) break;
        const colon = pending.indexOf(':', nul);
        const second = pending.indexOf(':', colon + 1);
        const line = Number.parseInt(pending.slice(nul + 1, colon), 10);
        const offset = Number.parseInt(pending.slice(colon + 1, second), 10);
        if (colon !== -1 && second !== -1 && second < newline && Number.isFinite(line) && Number.isFinite(offset)) {
          const file = pending.slice(start, nul).replace(/^\.\//, '');
          const raw = pending.slice(second + 1, newline);
          const entry = { line, offset, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw };
          const lines = found.get(file);
          if (lines) lines.push(entry);
          else found.set(file, [entry]);
          if (++reported >= MAX_MATCHED_LINES) {
            linesCapped = true;
            child.kill('SIGKILL');
            pending = '';
            return;
          }
        }
        start = newline + 1;
      }
      pending = pending.slice(start);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      run.release();
      if (signal?.aborted) resolve({ found, linesCapped });
      else reject(error);
    });
    child.on('close', (code) => {
      run.release();
      if (linesCapped || signal?.aborted) return resolve({ found, linesCapped });
      // ripgrep's status, raised by STATUS_OFFSET: 0 = matches, 1 = none, 2 = error (a pattern its dialect
      // rejects, or unreadable files). Anything else is the sandbox's (not made, a limit reached, an odd .gitignore).
      const status = code === null ? undefined : code - STATUS_OFFSET;
      if (status === 2 && /regex parse error|error parsing|unrecognized/i.test(stderr)) return resolve(undefined);
      resolve(status === 0 || status === 1 || status === 2 ? { found, linesCapped } : undefined);
    });
  });
}

/**
 * The reported lines that the file, opened here without following links, really holds at their
 * byte offsets. ripgrep opens files by path, so a directory swapped for a link during its walk can
 * make it read (and report) a file outside; such lines are not in the file inside, and are dropped.
 */
export function confirmReportedLines(root: string, file: string, lines: readonly MatchedLine[], maxBytes: number): MatchedLine[] {
  let fd: number;
  try {
    fd = openCheckedFile({ absolute: `${root}/${file}`, relative: file, root });
  } catch {
    return [];
  }
  try {
    return lines.filter(({ offset, text }) => offset !== undefined && lineAt(fd, offset, maxBytes) === text);
  } catch {
    return [];
  } finally {
    fs.closeSync(fd);
  }
}

/** The line starting at byte `offset` (without its line ending), read no further than `maxBytes`. */
function lineAt(fd: number, offset: number, maxBytes: number): string {
  const chunk = Buffer.allocUnsafe(64 * 1024);
  const parts: Buffer[] = [];
  let total = 0;
  for (let position = offset; total <= maxBytes;) {
    const read = fs.readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    const newline = chunk.subarray(0, read).indexOf(0x0a);
    const end = newline === -1 ? read : newline;
    parts.push(Buffer.from(chunk.subarray(0, end)));
    total += end;
    if (newline !== -1) break;
    position += read;
  }
  const text = Buffer.concat(parts, total).toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
