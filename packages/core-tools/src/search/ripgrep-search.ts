import { spawn, spawnSync } from 'node:child_process';
import type { MatchLines, SearchQuery } from './search-query.js';
import { ignoresCase } from './search-query.js';

let detected: string | false | undefined;

/** The ripgrep binary on PATH, if the machine has one. */
export function findRipgrep(): string | false {
  if (detected === undefined) {
    const probe = spawnSync('rg', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 });
    detected = probe.status === 0 && /^ripgrep \d/.test(probe.stdout) ? 'rg' : false;
  }
  return detected;
}

/**
 * The ripgrep engine, configured to select exactly the files the built-in engine does: hidden
 * files included, .git skipped, .gitignore honoured with or without a repository, no global,
 * parent, .ignore or .rgignore files, symlinks not followed, the same size cap; lines are reported
 * as the bytes of the file without their line ending, as the built-in engine reports them.
 * Resolves undefined when ripgrep cannot run the pattern (its regex dialect differs), so the caller
 * falls back to the built-in engine.
 */
export function ripgrepSearch(binary: string, root: string, query: SearchQuery, signal?: AbortSignal): Promise<MatchLines | undefined> {
  const args = [
    '--no-heading', '--with-filename', '--line-number', '--null', '--color', 'never',
    '--hidden', '--no-require-git', '--no-ignore-global', '--no-ignore-parent', '--no-ignore-dot', '--no-ignore-exclude', '--no-config',
    '--max-filesize', String(query.maxFileBytes), '-g', '!.git', '-g', '!.toolwright',
    ignoresCase(query) ? '--ignore-case' : '--case-sensitive',
    ...(query.literal ? ['--fixed-strings'] : []),
    ...query.include.map((g) => `-g${g}`), ...query.exclude.map((g) => `-g!${g}`),
    '--regexp', query.pattern, './',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, ...(signal ? { signal } : {}) });
    const found: MatchLines = new Map();
    let pending = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      let start = 0;
      let newline: number;
      while ((newline = pending.indexOf('\n', start)) !== -1) {
        // path NUL line-number ':' text
        const nul = pending.indexOf('\0', start);
        if (nul !== -1 && nul < newline) {
          const colon = pending.indexOf(':', nul);
          const line = Number.parseInt(pending.slice(nul + 1, colon), 10);
          if (colon !== -1 && colon < newline && Number.isFinite(line)) {
            const file = pending.slice(start, nul).replace(/^\.\//, '');
            const raw = pending.slice(colon + 1, newline);
            const entry = { line, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw };
            const lines = found.get(file);
            if (lines) lines.push(entry);
            else found.set(file, [entry]);
          }
        }
        start = newline + 1;
      }
      pending = pending.slice(start);
    });
    child.stderr.on('data', (chunk: Buffer) => { if (stderr.length < 4096) stderr += chunk.toString('utf8'); });
    child.on('error', (error) => (signal?.aborted ? resolve(found) : reject(error)));
    child.on('close', (code) => {
      // 0 = matches, 1 = none, 2 = error (a pattern its dialect rejects, or unreadable files)
      if (code === 2 && /regex parse error|error parsing|unrecognized/i.test(stderr)) return resolve(undefined);
      resolve(found);
    });
  });
}
