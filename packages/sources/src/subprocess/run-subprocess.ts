import { RunningProcess } from '@toolwright/core-tools';
import { holdsNetwork } from '../network-grant.js';
import { SourceError } from '../source-error.js';
import type { SubprocessToolOptions } from '../source-options.js';
import type { SourceRequest } from '../source-request.js';
import { execLine } from './exec-line.js';
import { StdoutCollector } from './stdout-collector.js';
import { findProgram } from './find-program.js';
import { subprocessEnvironment, SYSTEM_PATH } from './subprocess-environment.js';
import { SANDBOX_MODES, subprocessLauncher } from './subprocess-launcher.js';
import { subprocessLimits } from './subprocess-limits.js';
import { subprocessResult } from './subprocess-outcome.js';

/** Between SIGTERM and SIGKILL when the call's deadline passes, it is cancelled, or the output cap is reached. */
const KILL_GRACE_MS = 500;
/** Bytes of the program's error output kept (head and tail) for a failure's message. */
const STDERR_KEPT_BYTES = 64 * 1024;

/**
 * Runs one call of a subprocess tool: the program gets the arguments as one JSON object on stdin (then closed) and
 * prints its result as JSON on stdout; its error output is kept (bounded) for the failure's message. It runs as the
 * shell runs a command (`RunningProcess`: its own process group, registered with the watchdog before it starts, TERM
 * then KILL to the whole group), inside the kernel sandbox where the mode and the machine allow it (see
 * `subprocessLauncher`, `subprocessPolicy`), with a minimal environment and the tool's limits. Resolves to the parsed
 * result once nothing the program started runs any more; rejects with a `SourceError` (see `subprocessResult`).
 */
export async function runSubprocess(request: SourceRequest<{ argv: string[]; cwd: string }, SubprocessToolOptions>): Promise<unknown> {
  const { argv, cwd } = request.target;
  const mode = request.options.sandbox ?? 'auto';
  if (!SANDBOX_MODES.includes(mode))
    throw new SourceError('invalid_config', `the sandbox mode must be one of ${SANDBOX_MODES.join(', ')}, not '${String(mode)}'`);
  const limits = subprocessLimits(request);
  const command = execLine(argv);
  const pathVariable = request.options.env?.PATH ?? SYSTEM_PATH;
  const program = findProgram(argv[0]!, cwd, pathVariable);
  const launcher = await subprocessLauncher(mode, limits, {
    toolDir: cwd,
    program,
    args: argv.slice(1),
    workspace: request.context?.workspace,
    rules: request.context?.workspaceRules,
    writesWorkspace: request.declaration.metadata.tier !== 'read-only',
    // As the shell's: the tool asks for the network, and the call holds it (where capabilities are granted explicitly).
    network: request.options.network === true && holdsNetwork(request.context?.capabilities),
    pathVariable,
  });
  const stdout = new StdoutCollector(limits.maxOutputBytes);
  let running: RunningProcess;
  try {
    if (request.signal.aborted) throw new SourceError('cancelled', 'the call was cancelled before the program started');
    running = new RunningProcess({
      command,
      cwd,
      env: subprocessEnvironment(launcher.home, request.options.env, launcher.env),
      timeoutMs: request.declaration.metadata.timeoutMs,
      // What RunningProcess keeps of each stream: stderr's head and tail (stdout is collected whole, below).
      maxOutputBytes: STDERR_KEPT_BYTES,
      killGraceMs: KILL_GRACE_MS,
      signal: request.signal,
      launch: launcher.launch,
      prelude: launcher.prelude,
      onReady: launcher.ready,
      stdin: JSON.stringify(request.input),
      onStdout: (chunk) => {
        if (!stdout.push(chunk)) running.kill();
      },
    });
  } catch (error) {
    void launcher.release();
    throw error;
  }
  const outcome = await running.done;
  // What the kernel counted is read from the control group before the group is given back.
  const events = launcher.events();
  await launcher.release();
  return subprocessResult({
    outcome,
    stdout,
    events,
    signal: request.signal,
    limits,
    sandboxed: launcher.ranIn === 'sandbox',
    program: argv[0]!,
    input: request.input,
  });
}
