import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

/** The longest message read from stdin, in bytes (the MCP SDK's own stdio limit). */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;
/** How much of an oversized message is kept to find its `id`. */
const HEAD_BYTES = 64 * 1024;
/** JSON-RPC's "Invalid Request". */
const INVALID_REQUEST = -32600;

export interface StdioTransportOptions {
  maxMessageBytes?: number;
  /** Where a note about a skipped message goes (default: stderr). */
  log?: (line: string) => void;
}

/**
 * MCP over stdio, one JSON-RPC message per line, like the SDK's `StdioServerTransport` — except for
 * a message longer than the limit: the SDK's transport closes on it, and the server exits 0 without
 * a word. This one skips that line (nothing of it is kept past the first 64 KiB), answers it with a
 * JSON-RPC error (its `id` when the head of the line shows it, else null), notes it on stderr, and
 * keeps serving.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly max: number;
  private readonly log: (line: string) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Inside an oversized line that has been answered: the rest is dropped up to its newline. */
  private skipping = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    options: StdioTransportOptions = {},
  ) {
    this.max = options.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
    this.log = options.log ?? ((line) => process.stderr.write(line));
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.size = 0;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }

  private readonly onError = (error: Error) => this.onerror?.(error);

  private readonly onData = (data: Buffer | string) => {
    let rest = typeof data === 'string' ? Buffer.from(data) : data;
    while (rest.length > 0) {
      const newline = rest.indexOf(0x0a);
      const piece = newline === -1 ? rest : rest.subarray(0, newline);
      rest = newline === -1 ? Buffer.alloc(0) : rest.subarray(newline + 1);
      if (this.skipping) {
        this.skipping = newline === -1;
        continue;
      }
      if (this.size + piece.length > this.max) {
        this.refuseOversized(this.head(piece));
        this.chunks = [];
        this.size = 0;
        this.skipping = newline === -1;
        continue;
      }
      this.chunks.push(piece);
      this.size += piece.length;
      if (newline !== -1) this.deliver();
    }
  };

  private deliver(): void {
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  /** The first bytes of the line being read, `piece` included. */
  private head(piece: Buffer): string {
    const parts: Buffer[] = [];
    let size = 0;
    for (const part of [...this.chunks, piece]) {
      if (size >= HEAD_BYTES) break;
      parts.push(part.subarray(0, HEAD_BYTES - size));
      size += parts[parts.length - 1]!.length;
    }
    return Buffer.concat(parts).toString('utf8');
  }

  private refuseOversized(head: string): void {
    const id = idOf(head);
    const limit = `${this.max.toLocaleString('en-US')} bytes`;
    void this.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id,
        error: { code: INVALID_REQUEST, message: `The message is longer than the limit of ${limit}; it was skipped. Send smaller messages.` },
      })}\n`,
    );
    this.log(
      `toolwright: skipped a stdio message longer than ${limit}${id !== null ? ` (request id ${JSON.stringify(id)})` : ''} and answered it with an error\n`,
    );
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(text)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}

/**
 * The `id` of a JSON-RPC message from the head of its line, when it comes before anything that could
 * hide a nested `"id"` (only `jsonrpc` and `method` may precede it); else null, as JSON-RPC answers a
 * request whose id cannot be read.
 * @example idOf('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{...') === 7
 */
export function idOf(head: string): string | number | null {
  const match = /^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)*"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(
    head,
  );
  if (!match) return null;
  try {
    const id: unknown = JSON.parse(match[1]!);
    return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
  } catch {
    return null;
  }
}
