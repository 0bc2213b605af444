import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the endpoint received. */
export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the endpoint answers a request with; it may also never answer. */
export type Handler = (request: Received, response: http.ServerResponse) => void;

/** A node:http server on a loopback address that records what reached it. */
export interface LocalEndpoint {
  origin: string;
  port: number;
  url(path: string): string;
  requests: Received[];
  /** Connections accepted so far. */
  connections: number;
  /** Resolves once every connection accepted so far is closed (from either side). */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

export async function localEndpoint(handler: Handler, host = '127.0.0.1'): Promise<LocalEndpoint> {
  const open = new Set<Promise<void>>();
  const requests: Received[] = [];
  let connections = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(received);
      handler(received, response);
    });
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    open.add(closed);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    origin,
    port,
    url: (path) => `${origin}${path}`,
    requests,
    get connections() {
      return connections;
    },
    allClosed: async () => {
      await Promise.all(open);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Answers `value` as JSON with `status`. */
export function json(response: http.ServerResponse, value: unknown, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}
