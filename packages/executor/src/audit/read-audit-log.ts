import type { AuditRecord } from './audit-record.js';
import { readNoFollow, rotatedFiles } from './rotated-files.js';
import { scanLog } from './scan-log.js';

/**
 * Reads every complete record of a log and of its rotated files (`<log>.N` … `<log>.1`, oldest first), in
 * `seq` order. A torn last line (a crash mid-write) is ignored and reported in `torn`. A record read twice
 * (a rotation between listing and reading the files) is kept once.
 */
export function readAuditLog(path: string): { records: AuditRecord[]; torn: boolean } {
  const records: AuditRecord[] = [];
  let torn = false;
  for (const file of [...rotatedFiles(path), path]) {
    let bytes: Buffer | undefined;
    try {
      bytes = readNoFollow(file); // a link in a log's place is no log (its records would be another file's)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // rotated away, or never written
      throw error;
    }
    if (bytes === undefined) continue;
    const scan = scanLog(bytes, file);
    records.push(...scan.records);
    torn ||= scan.tornBytes !== undefined;
  }
  records.sort((a, b) => a.seq - b.seq);
  return { records: records.filter((record, index) => index === 0 || record.seq !== records[index - 1]!.seq), torn };
}
