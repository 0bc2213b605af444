import http from 'node:http';
import { SourceError } from '../source-error.js';
import type { HttpToolOptions } from '../source-options.js';
import { toolDestinations, type ToolDestinations } from '../tool-destinations.js';

/** An HTTP tool's endpoint and how it is called, from the tool's URL and options (checked once per call). */
export interface HttpEndpoint {
  url: URL;
  destinations: ToolDestinations;
  /** The protocol's headers: sent to every hop, and winning over the tool's. */
  headers: Record<string, string>;
  /** The tool's `headers`: sent only while the request stays on the endpoint's origin. */
  originHeaders: Record<string, string>;
  maxResponseBytes: number;
}

/** Largest response body read by default (`maxResponseBytes`). */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const USER_AGENT = 'Toolwright-http-tool/0.1';
/** Headers that frame the request or pick its target: the runner's to set, never the tool's. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'expect', 'te', 'keep-alive']);

/** Checks the tool's URL and options, each failure an `invalid_config` that names what to fix. */
export function httpEndpoint(target: string, options: HttpToolOptions, tool: string): HttpEndpoint {
  const originHeaders = toolHeaders(options.headers ?? {});
  const ownAgent = Object.keys(originHeaders).some((name) => name.toLowerCase() === 'user-agent');
  return {
    url: endpointUrl(target),
    destinations: toolDestinations(tool, options.allowAddresses, options.allowPorts),
    headers: { ...(ownAgent ? {} : { 'user-agent': USER_AGENT }), 'content-type': 'application/json', accept: 'application/json' },
    originHeaders,
    maxResponseBytes: responseCap(options.maxResponseBytes),
  };
}

function endpointUrl(target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new SourceError('invalid_config', `the tool's URL '${target}' is not an absolute URL (e.g. https://api.example.com/convert)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SourceError('invalid_config', `the tool's URL must be http or https, not ${url.protocol.replace(/:$/, '')}:`);
  if (url.username !== '' || url.password !== '')
    throw new SourceError('invalid_config', "the tool's URL carries credentials (user:password@): send them in the `headers` option instead");
  return url;
}

function toolHeaders(headers: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    try {
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value);
    } catch {
      throw new SourceError('invalid_config', `the header ${JSON.stringify(name)} in the tool's headers is not a valid HTTP header name and value`);
    }
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw new SourceError('invalid_config', `the header '${name}' is the runner's to set; remove it from the tool's headers`);
  }
  return { ...headers };
}

function responseCap(bytes: number | undefined): number {
  if (bytes === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new SourceError('invalid_config', `maxResponseBytes must be a positive whole number of bytes, not ${String(bytes)}`);
  return bytes;
}
