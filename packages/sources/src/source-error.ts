/**
 * Every way a source tool fails, by a stable code the executor keeps (`tool_failed`'s `errorCode`, the audit
 * record); the message is a sentence for the model or the operator that says what happened and what to do.
 */
export type SourceErrorCode =
  /** A limit stopped the tool: `limit` names which (fuel, memory, time, cpu, processes, file size, output). */
  | 'resource_exhausted'
  /** The implementation failed: a WebAssembly trap, a process that exited non-zero or was killed, a module without the export. */
  | 'source_failed'
  /** The implementation answered something that is not the JSON the protocol asks for. */
  | 'invalid_output'
  /** The module, program or script is not where the tool says. */
  | 'not_found'
  /** An HTTP endpoint answered with an error status. */
  | 'http_error'
  /** A host or address the tool may not reach (SSRF defences, the tool's allowed addresses). */
  | 'address_refused'
  /** A file the tool asked for lies outside what its mounts grant. */
  | 'access_denied'
  /** The call was cancelled (its signal aborted) before the tool finished. */
  | 'cancelled'
  /** The function was not compiled with the Toolwright transformer, so its parameters are unknown. */
  | 'not_declared'
  /** The kernel sandbox is required for this tool and unavailable here. */
  | 'sandbox_unavailable'
  /** The tool's own options are invalid (a limit that is not a positive number, a relative path with no base). */
  | 'invalid_config';

/** Which limit a `resource_exhausted` failure hit. */
export type SourceLimit = 'fuel' | 'memory' | 'time' | 'cpu' | 'processes' | 'file_size' | 'output';

/** A source tool's failure: `code` from the catalogue above, `limit` when a limit stopped it. */
export class SourceError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    message: string,
    readonly limit?: SourceLimit,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}
