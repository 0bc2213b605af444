import { renderName, renderText } from '../model-text/render-name.js';
import type { ShellJobStarted, ShellJobStatus, ShellResult } from './shell-result.js';

/** Failures that mean a sandboxed command needed more than the sandbox gives. */
const SANDBOX_DENIALS =
  /Read-only file system|Permission denied|Operation not permitted|Could not resolve host|Temporary failure in name resolution|Network is unreachable|No route to host|getaddrinfo|EROFS|EACCES|ENETUNREACH|EAI_AGAIN/i;

/**
 * The status on one line (exit code or signal, duration, the session's directory), then each
 * stream that wrote anything under a `[stdout]` or `[stderr]` heading; a sandboxed command that failed
 * the way a sandbox makes commands fail says how to ask for more.
 * @example 'exit code 1 (40 ms)\n[stderr]\nls: cannot access \'missing\': No such file or directory'
 */
export function renderShellResult(result: ShellResult): string {
  const status = result.timedOut
    ? `timed out and was killed${result.signal ? ` (${result.signal})` : ''}`
    : result.exitCode !== null
      ? `exit code ${result.exitCode}`
      : `ended by signal ${result.signal ?? 'unknown'}`;
  const where = result.ranIn === 'escalated' ? '; ran outside the sandbox, as approved' : '';
  const lines = [`${status} (${duration(result.durationMs)})${where}${result.cwd !== undefined ? `; working directory: ${renderName(result.cwd)}` : ''}`];
  if (result.sessionRestarted) lines.push('[the session shell was started afresh: its working directory and variables were reset]');
  lines.push(...streamBlocks(result.stdout, result.stderr));
  for (const limit of result.limitsReached ?? []) lines.push(`[limit reached: ${limit}]`);
  if (result.ranIn === 'sandbox' && result.exitCode !== 0 && SANDBOX_DENIALS.test(result.stderr))
    lines.push(
      '[this ran in the sandbox: only the workspace is writable, nothing outside it is visible, there is no network. If the command truly needs more, call shell_exec again with escalate: true — a person must approve it]',
    );
  return lines.join('\n');
}

/** A background job: how to follow it, its output so far, or its result. */
export function renderShellJob(job: ShellJobStarted | ShellJobStatus): string {
  if ('command' in job)
    return `Started background job ${job.jobId}: ${renderText(job.command)}\nRead its output with shell_job_output (jobId "${job.jobId}"); stop it with shell_job_kill.`;
  if (job.result) return `job ${job.jobId} has finished: ${renderShellResult(job.result)}`;
  return [`job ${job.jobId} is still running; its output so far:`, ...streamBlocks(job.stdout ?? '', job.stderr ?? '')].join('\n');
}

function streamBlocks(stdout: string, stderr: string): string[] {
  const blocks: string[] = [];
  if (stdout !== '') blocks.push('[stdout]', stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout);
  if (stderr !== '') blocks.push('[stderr]', stderr.endsWith('\n') ? stderr.slice(0, -1) : stderr);
  if (blocks.length === 0) blocks.push('[no output]');
  return blocks;
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
