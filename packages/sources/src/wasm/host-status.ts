/**
 * What a host function returns when it does not do what it was asked (negative, so it never reads as a
 * pointer or a length): the same numbers the ABI in the package README lists.
 */
export const HostStatus = {
  ok: 0,
  /**
   * Files: outside the workspace, through a link out of it, protected, no workspace at all, or a write by a read-only
   * tool. Network: the call does not hold `net.connect`, or the address or port (of the URL or a redirect) is refused.
   */
  denied: -1,
  notFound: -2,
  /** The file, or the response body, is larger than the module's memory (or the 4 MiB response cap) could hold. */
  tooLarge: -3,
  /**
   * Anything else the file system refused (not a regular file, a parent that is a file, an I/O error), or a request
   * that failed (no such host, no connection, a broken body, too many redirects, the call ending).
   */
  failed: -4,
  /** The path or URL is not valid UTF-8 (or not an http(s) URL), or a pointer and length lie outside the module's memory. */
  invalid: -5,
} as const;

/** A request from a module's host function (`toolwright.read_file`, `write_file`, `http_get`). */
export type HostRequest = { op: 'read' | 'write'; path: string; data?: Uint8Array } | { op: 'get'; url: string };

/** `code` is `HostStatus.ok` or why not; `data` is a read file's content or a response's body, `status` a response's HTTP status. */
export interface HostReply {
  code: number;
  data?: Uint8Array;
  status?: number;
}
