import { AddressPolicy, destinationsFor } from '@toolwright/core-tools';
import { SourceError } from './source-error.js';

/** Where a tool's guarded requests may connect, as `destinationsFor` of @toolwright/core-tools says it. */
export type ToolDestinations = ReturnType<typeof destinationsFor>;

/**
 * Public hosts on ports 80 and 443, plus the tool's `allowAddresses` (addresses or CIDR ranges, which may use any port)
 * and `allowPorts`; an entry that is neither is an `invalid_config` naming it. Shared by the HTTP and WebAssembly runners.
 * @example toolDestinations('wiki_fetch', ['127.0.0.1'], [8080])
 */
export function toolDestinations(tool: string, allowAddresses: readonly string[] = [], allowPorts: readonly number[] = []): ToolDestinations {
  for (const entry of allowAddresses) {
    try {
      new AddressPolicy([entry]);
    } catch {
      throw new SourceError('invalid_config', `'${String(entry)}' in allowAddresses is not an IP address or CIDR range (e.g. 127.0.0.1 or 10.0.0.0/8)`);
    }
  }
  for (const port of allowPorts) {
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new SourceError('invalid_config', `'${String(port)}' in allowPorts is not a port number (1-65535)`);
  }
  return destinationsFor(tool, allowAddresses, allowPorts);
}
