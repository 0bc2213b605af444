import { JsonText, type AuditEntry } from '../ports.js';
import { stringJson } from '../output/normalize-output.js';
import { escapeTerminalControlsInJson } from '../terminal-safe.js';

/**
 * Audit records as JSONL lines: `{"seq":N,"time":"…",<the entry's fields in order>}`, numbered from
 * `lastSeq`. Field by field: `JsonText` values are spliced in as they are, plain strings are quoted
 * without a trip through `JSON.stringify`, anything else is `JSON.stringify`'d — so a line equals
 * `JSON.stringify` of the record, but for the characters a terminal acts on that JSON leaves raw (DEL, C1 and
 * bidi controls, U+2028/U+2029), written as `\uXXXX` escapes: a `tail -f` of the log hands no terminal a control
 * sequence a tool's arguments or output carried. The time text is made once per millisecond.
 */
export class RecordLines {
  private lastMs = 0;
  private lastIso = '';

  constructor(private seq: number) {}

  /** The last sequence number handed out. */
  get lastSeq(): number {
    return this.seq;
  }

  /** The next record's line, newline included; throws when a field cannot be serialised (the seq is not used up). */
  line(entry: AuditEntry): string {
    let fields = '';
    for (const key in entry) {
      const json = fieldJson((entry as Record<string, unknown>)[key]);
      if (json === undefined) continue;
      let quoted = quotedKeys.get(key);
      if (quoted === undefined) {
        quoted = `,${JSON.stringify(key)}:`;
        if (quotedKeys.size < 1024) quotedKeys.set(key, quoted);
      }
      fields += quoted + json;
    }
    const now = Date.now();
    if (now !== this.lastMs) {
      this.lastMs = now;
      this.lastIso = new Date(now).toISOString();
    }
    this.seq++;
    return `{"seq":${this.seq},"time":"${this.lastIso}"${escapeTerminalControlsInJson(fields)}}\n`;
  }
}

const quotedKeys = new Map<string, string>();

/**
 * A field's JSON, or undefined for values JSON.stringify leaves out of an object (undefined, functions,
 * symbols). Scalars, plain strings and arrays of them — most of a record — skip `JSON.stringify`.
 */
function fieldJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringJson(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      if (value instanceof JsonText) return value.json;
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + stringJson(value[i] as string);
        return `${out}]`;
      }
      return JSON.stringify(value);
  }
}
