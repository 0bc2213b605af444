import { SourceError } from '../source-error.js';
import type { Refusal } from './host-calls.js';
import type { JobOutcome } from './run-job.js';
import { formatBytes, PAGE_BYTES, type WasmLimits } from './wasm-limits.js';
import { WORKER_HEAP_MB } from './worker-pool.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The call's result, or the `SourceError` that says why there is none. Out of fuel and out of memory are
 * read from the meters, not from the trap's message: a module stopped by its fuel traps as `unreachable`,
 * one whose `memory.grow` was refused traps or aborts however its language handles that.
 */
export function callOutcome(outcome: JobOutcome, limits: WasmLimits, refusals: readonly Refusal[]): unknown {
  switch (outcome.stop) {
    case 'aborted':
      throw stoppedBy(outcome.reason, limits);
    case 'timeout':
      throw timedOut(limits);
    case 'crashed':
      if (outcome.outOfMemory)
        throw new SourceError(
          'resource_exhausted',
          `the module's worker ran out of its ${formatBytes(WORKER_HEAP_MB * 1024 * 1024)} JavaScript heap and was stopped`,
          'memory',
        );
      throw new SourceError('source_failed', `the module's worker stopped: ${outcome.detail}`);
    case 'reply':
      break;
  }
  const { reply } = outcome;
  if (reply.ok) return parseResult(reply.bytes);
  if (reply.kind === 'output')
    throw new SourceError(
      'resource_exhausted',
      `the module returned ${formatBytes(reply.length)}, more than its ${formatBytes(limits.maxOutputBytes)} output cap (maxOutputBytes)`,
      'output',
    );
  if (reply.fuelLeft !== undefined && reply.fuelLeft < 0n)
    throw new SourceError(
      'resource_exhausted',
      `the module used its whole compute budget of ${limits.fuel.toLocaleString('en')} fuel (one per function call and loop iteration) and was stopped`,
      'fuel',
    );
  if (reply.growFailed)
    throw new SourceError(
      'resource_exhausted',
      `the module needed more than its ${formatBytes(limits.capPages * PAGE_BYTES)} memory cap (maxMemory; it had ${formatBytes(reply.memoryBytes)}) and stopped: ${reply.message}`,
      'memory',
    );
  // The first refusal names the code (`access_denied` for a file, `address_refused` for the network); all are listed.
  if (refusals[0])
    throw new SourceError(refusals[0].code, `the module was refused ${refusals.map((r) => r.reason).join('; ')}; then it failed: ${reply.message}`);
  switch (reply.kind) {
    case 'result':
      throw new SourceError('invalid_output', `the module's result is not what the ABI asks for: ${reply.message}`);
    case 'abort':
      throw new SourceError('source_failed', `the module aborted: ${reply.message}`);
    case 'trap':
      throw new SourceError('source_failed', `the module trapped: ${reply.message}`);
    case 'link':
    case 'export':
      throw new SourceError('source_failed', reply.message);
  }
}

function parseResult(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new SourceError('invalid_output', `the module's result (${formatBytes(bytes.length)}) is not valid UTF-8; it must be a JSON value`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const preview = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    throw new SourceError('invalid_output', `the module's result is not JSON (${(error as Error).message}): ${JSON.stringify(preview)}`);
  }
}

/** Why a call whose signal aborted stopped: its deadline (`TimeoutError`), or a cancellation. */
export function stoppedBy(reason: unknown, limits: WasmLimits): SourceError {
  if ((reason as { name?: unknown } | undefined)?.name === 'TimeoutError') return timedOut(limits);
  return new SourceError('cancelled', 'the call was cancelled; the module was stopped');
}

function timedOut(limits: WasmLimits): SourceError {
  return new SourceError('resource_exhausted', `the module ran past its time limit of ${limits.timeoutMs} ms (timeout) and was stopped`, 'time');
}
