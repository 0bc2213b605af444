import type { WebSearchProvider } from './search-provider.js';

/** Limits and exceptions of the web tools. */
export interface WebConfig {
  /** Internal addresses web_fetch may reach anyway (CIDR ranges or addresses, e.g. `10.1.0.0/16`). */
  allowAddresses?: readonly string[];
  /**
   * Ports web_fetch may use on any public host besides 80 and 443 (e.g. `[8080]`). Hosts whose
   * address is in `allowAddresses` may use any port.
   */
  allowPorts?: readonly number[];
  /** Largest decompressed body read, in bytes (default 2 MiB). */
  maxBytes?: number;
  /** Most redirects followed (default 5). */
  maxRedirects?: number;
  /** Per-fetch time limit (default 30 s). */
  timeoutMs?: number;
  userAgent?: string;
  /** Where web_search sends queries; without one, web_search says it is not configured. */
  search?: WebSearchProvider;
}
