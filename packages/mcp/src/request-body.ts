import type http from 'node:http';

export type BodyResult =
  | { ok: true; value: unknown }
  | { ok: false; status: 400 | 413; code: number; message: string };

/**
 * Reads a JSON request body of at most `maxBytes`. A body declared or found larger is answered 413
 * without buffering it: the rest is left flowing, and Node's server reads and discards it once the
 * response is sent, so the client reads the 413 instead of meeting a reset connection (destroying
 * the socket while the client still writes makes the kernel send RST). The server's request timeout
 * bounds how long a client may keep sending.
 */
export function readJsonBody(req: http.IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const tooLarge = (): BodyResult => ({ ok: false, status: 413, code: -32000, message: `the request body is larger than the limit of ${maxBytes} bytes` });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(tooLarge());
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.off('data', onData);
      chunks.length = 0;
      req.resume();
      resolve(tooLarge());
    };
    req.on('data', onData);
    req.on('end', () => {
      if (size > maxBytes) return;
      try {
        resolve({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        resolve({ ok: false, status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON' });
      }
    });
    req.on('error', () => resolve({ ok: false, status: 400, code: -32000, message: 'the request body could not be read' }));
    req.on('aborted', () => resolve({ ok: false, status: 400, code: -32000, message: 'the client stopped sending the request body' }));
  });
}
