import type { WasmToolOptions } from '../source-options.js';
import type { SourceRequest } from '../source-request.js';
import { toolDestinations } from '../tool-destinations.js';
import { callOutcome, stoppedBy } from './call-outcome.js';
import { HostCalls } from './host-calls.js';
import { MAX_HTTP_BODY_BYTES } from './host-network.js';
import { loadModule } from './module-cache.js';
import { runJob } from './run-job.js';
import { wasmLimits } from './wasm-limits.js';

/**
 * Runs one call of a WebAssembly tool: the module (compiled once per version and memory cap) is
 * instantiated afresh in a worker thread, given the arguments as UTF-8 JSON through its `alloc`, and
 * its tool export's result is read back as UTF-8 JSON. The memory cap is written into the module, the
 * fuel meters its loops and calls, and the call's signal (with the tool's timeout as a backstop) stops
 * the worker outright. Files and GETs go through `HostCalls`; a GET still running when the job ends
 * (the worker stopped or crashed) is aborted with it. See the package README for the ABI.
 */
export async function runWasm(request: SourceRequest<string, WasmToolOptions>): Promise<unknown> {
  const limits = wasmLimits(request);
  const destinations = toolDestinations(request.tool, request.options.allowAddresses, request.options.allowPorts);
  const loaded = await loadModule(request.target, limits.capPages);
  if (request.signal.aborted) throw stoppedBy(request.signal.reason, limits);
  const jobEnded = new AbortController();
  const host = new HostCalls({
    workspace: request.context?.workspace,
    rules: request.context?.workspaceRules,
    tier: request.declaration.metadata.tier,
    maxReadBytes: limits.memoryBytes,
    network: {
      capabilities: request.context?.capabilities,
      destinations,
      maxBytes: Math.min(MAX_HTTP_BODY_BYTES, limits.memoryBytes),
      signal: AbortSignal.any([request.signal, jobEnded.signal]),
    },
  });
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
  jobEnded.abort();
  return callOutcome(outcome, limits, host.refusals);
}
