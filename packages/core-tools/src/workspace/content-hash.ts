import { createHash, type Hash } from 'node:crypto';

/**
 * The hash of a file's content that `file_read` reports and `file_edit` checks (`expectedHash`, and
 * the session's record of what was last read): sha-256 of the bytes, hex. Text is hashed as UTF-8.
 */
export function contentHash(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The same hash, fed chunk by chunk (a file read in pieces). */
export function contentHasher(): Pick<Hash, 'update'> & { digest(): string } {
  const hash = createHash('sha256');
  return { update: (chunk) => hash.update(chunk), digest: () => hash.digest('hex') };
}
