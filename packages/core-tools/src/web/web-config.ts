import type { WebSearchProvider } from './search-provider.js';

/** Limits and exceptions of the web tools. */
export interface WebConfig {
  /** Internal addresses web_fetch may reach anyway (CIDR ranges or addresses, e.g. `10.1.0.0/16`). */
  allowAddresses?: readonly string[];
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
