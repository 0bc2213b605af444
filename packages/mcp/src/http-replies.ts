import http from 'node:http';
import type { Socket } from 'node:net';
import { escapeTerminalControls } from '@toolwright/executor';

/** Answers a refused request: an HTTP status with a JSON-RPC error body. */
export type Reply = (status: number, code: number, message: string, headers?: Record<string, string>) => void;

/** The JSON-RPC error body of a refusal; the message is escaped (it may quote a header the client sent). */
export function jsonRpcError(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message: escapeTerminalControls(message) }, id: null });
}

/** Malformed requests, oversized headers and timeouts, answered as JSON-RPC errors like every other refusal. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A response already under way (e.g. a 413 while the client still sends) is not followed by another; Node's default handler checks the same field.
  const answered = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent ?? false;
  if (error.code === 'ECONNRESET' || !socket.writable || answered) return void socket.destroy();
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    status === 431 ? 'the request headers are too large' : status === 408 ? 'the request did not arrive in time' : 'the request is not valid HTTP';
  const body = jsonRpcError(-32000, message);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
