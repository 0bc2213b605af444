import type { WasmToolOptions } from '../source-options.js';
import type { SourceRequest } from '../source-request.js';
import { callOutcome, stoppedBy } from './call-outcome.js';
import { HostCalls } from './host-calls.js';
import { loadModule } from './module-cache.js';
import { runJob } from './run-job.js';
import { wasmLimits } from './wasm-limits.js';

/**
 * Runs one call of a WebAssembly tool: the module (compiled once per version and memory cap) is
 * instantiated afresh in a worker thread, given the arguments as UTF-8 JSON through its `alloc`, and
 * its tool export's result is read back as UTF-8 JSON. The memory cap is written into the module, the
 * fuel meters its loops and calls, and the call's signal (with the tool's timeout as a backstop) stops
 * the worker outright. Files go through `HostCalls`. See the package README for the ABI.
 */
export async function runWasm(request: SourceRequest<string, WasmToolOptions>): Promise<unknown> {
  const limits = wasmLimits(request);
  const loaded = await loadModule(request.target, limits.capPages);
  if (request.signal.aborted) throw stoppedBy(request.signal.reason, limits);
  const host = new HostCalls({ workspace: request.context?.workspace, tier: request.declaration.metadata.tier, maxReadBytes: limits.memoryBytes });
  const outcome = await runJob(
    {
      module: loaded.module,
      memories: loaded.importedMemories,
      exportName: request.options.export ?? 'call',
      input: JSON.stringify(request.input),
      fuel: BigInt(limits.fuel),
      maxOutputBytes: limits.maxOutputBytes,
    },
    {
      signal: request.signal,
      timeoutMs: limits.timeoutMs,
      host: (hostRequest) => host.handle(hostRequest),
      log: (text) => request.context?.progress({ message: text }),
    },
  );
  return callOutcome(outcome, limits, host.refusals);
}
