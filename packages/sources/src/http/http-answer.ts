import http from 'node:http';
import { SourceError } from '../source-error.js';
import { textExcerpt } from './text-excerpt.js';

/** What the endpoint answered, as the guarded request read it. */
export interface HttpAnswer {
  status: number;
  contentType: string;
  body: Buffer;
  /** Whether the body went on past what was read. */
  truncated: boolean;
}

/** Longest excerpt of an endpoint's text put in a message. */
const EXCERPT_CHARS = 200;
/** Fields an error body names its reason in (`{"error": "..."}`, `{"message": "..."}`, FastAPI's `{"detail": "..."}`). */
const REASON_FIELDS = ['error', 'message', 'detail'];

/**
 * The tool's result from the endpoint's answer: a 2xx body parsed as JSON (a 204 is `null`); anything else is a
 * `SourceError` — `resource_exhausted` (`output`) for a 2xx body longer than `maxBytes`, `invalid_output` for one
 * that is not JSON, `http_error` for any other status, naming it and the reason the body gives.
 */
export function httpResult(answer: HttpAnswer, maxBytes: number): unknown {
  const { status } = answer;
  if (status < 200 || status > 299) throw new SourceError('http_error', `the endpoint answered HTTP ${statusLine(status)}${reasonOf(answer.body)}`);
  if (status === 204) return null;
  if (answer.truncated || answer.body.length > maxBytes)
    throw new SourceError(
      'resource_exhausted',
      `the endpoint answered more than the tool's ${maxBytes}-byte response cap (maxResponseBytes); reading stopped there`,
      'output',
    );
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(answer.body);
  } catch {
    throw new SourceError('invalid_output', `the endpoint answered HTTP ${status} with a body that is not UTF-8 text; it must answer the result as JSON`);
  }
  if (text.trim() === '')
    throw new SourceError('invalid_output', `the endpoint answered HTTP ${status} with an empty body; it must answer JSON (or 204 for no result)`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const type = answer.contentType === '' ? 'no content type' : textExcerpt(answer.contentType, 80);
    throw new SourceError(
      'invalid_output',
      `the endpoint answered HTTP ${status} with a body that is not JSON (${type}: '${textExcerpt(text, 80)}'); it must answer the result as JSON`,
    );
  }
}

function statusLine(status: number): string {
  const name = http.STATUS_CODES[status];
  return name === undefined ? String(status) : `${status} ${name}`;
}

/** `: <reason>` from an error body — its JSON `error`, `message` or `detail` field, else its text — or nothing. */
function reasonOf(body: Buffer): string {
  const text = body.toString('utf8');
  let reason = text;
  try {
    reason = reasonField(JSON.parse(text)) ?? text;
  } catch {
    // Not JSON: the text itself is the reason.
  }
  const excerpt = textExcerpt(reason, EXCERPT_CHARS);
  return excerpt === '' ? '' : `: ${excerpt}`;
}

function reasonField(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of REASON_FIELDS) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'string') return field;
    const nested = typeof field === 'object' && field !== null ? (field as Record<string, unknown>).message : undefined;
    if (typeof nested === 'string') return nested;
  }
  return undefined;
}
