import { execFile } from 'node:child_process';

/**
 * bash's own syntax error for `command` (`syntax error near unexpected token ';;' (line 1)`), or
 * undefined when bash parses it. bash reads the line with `-n` (noexec: commands are read, never
 * run, so not even `set +n` takes effect), without start-up files, with an empty environment, in
 * `/`. The judge works on tree-sitter-bash's tree; this makes sure bash accepts the same line.
 */
export function bashSyntaxError(command: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      '/bin/bash',
      ['--noprofile', '--norc', '-n', '-c', command, 'bash'],
      { env: {}, cwd: '/', timeout: 5000, maxBuffer: 256 * 1024, windowsHide: true },
      (error, _stdout, stderr) => {
        if (!error) return resolve(undefined);
        if (error.killed) return resolve('bash took too long to read it');
        if (typeof error.code !== 'number') return resolve(`bash could not be started to check it (${error.message})`);
        resolve(firstError(String(stderr), command.includes('\n')) ?? `bash rejected it (exit status ${error.code})`);
      },
    );
  });
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
