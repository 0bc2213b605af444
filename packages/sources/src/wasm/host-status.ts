/**
 * What a host function returns when it does not do what it was asked (negative, so it never reads as a
 * pointer or a length): the same numbers the ABI in the package README lists.
 */
export const HostStatus = {
  ok: 0,
  /** Outside the workspace, through a link out of it, protected, no workspace at all, or a write by a read-only tool. */
  denied: -1,
  notFound: -2,
  /** The file is larger than the module's memory could hold. */
  tooLarge: -3,
  /** Anything else the file system refused (not a regular file, a parent that is a file, an I/O error). */
  failed: -4,
  /** The path is not valid UTF-8, or a pointer and length lie outside the module's memory. */
  invalid: -5,
} as const;
