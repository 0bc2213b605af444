import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { REPO } from './run.js';

interface Message {
  type: 'response' | 'event';
  request_seq?: number;
  command?: string;
  success?: boolean;
  body?: unknown;
  event?: string;
}

/** A minimal client of the stock tsserver, speaking its stdio protocol (Content-Length framed JSON). */
export class TsServerClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private seq = 0;
  private buffer = Buffer.alloc(0);
  private readonly pending = new Map<number, (message: Message) => void>();
  readonly events: Message[] = [];

  /** Starts `tsserver` (the repository's unless another is given) with `cwd` as its working directory. */
  constructor(cwd: string, tsserver = path.join(REPO, 'node_modules', 'typescript', 'lib', 'tsserver.js')) {
    this.child = spawn(process.execPath, [tsserver, '--disableAutomaticTypingAcquisition'], { cwd });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
  }

  request<T>(command: string, args: unknown): Promise<T> {
    const seq = ++this.seq;
    this.child.stdin.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`tsserver did not answer '${command}' in 60 s`)), 60_000);
      this.pending.set(seq, (message) => {
        clearTimeout(timer);
        if (message.success === false) reject(new Error(`tsserver '${command}' failed: ${JSON.stringify(message)}`));
        else resolve(message.body as T);
      });
    });
  }

  notify(command: string, args: unknown): void {
    this.child.stdin.write(`${JSON.stringify({ seq: ++this.seq, type: 'request', command, arguments: args })}\n`);
  }

  close(): void {
    this.child.kill();
  }

  private onData(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const header = this.buffer.indexOf('\r\n\r\n');
      if (header < 0) return;
      const match = /Content-Length: (\d+)/.exec(this.buffer.subarray(0, header).toString('utf8'));
      if (!match) throw new Error('tsserver sent a message without Content-Length');
      const length = Number(match[1]);
      const start = header + 4;
      if (this.buffer.length < start + length) return;
      const message = JSON.parse(this.buffer.subarray(start, start + length).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(start + length);
      if (message.type === 'response' && message.request_seq !== undefined) this.pending.get(message.request_seq)?.(message);
      else this.events.push(message);
    }
  }
}
