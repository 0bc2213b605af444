import type http from 'node:http';

export type BodyResult = { ok: true; value: unknown } | { ok: false; status: 400 | 413; code: number; message: string };

/**
 * Reads a JSON request body of at most `maxBytes`. A body declared or found larger is refused (413)
 * without buffering it; `drainRequest` then lets the client finish sending before the answer goes
 * out. The server's request timeout bounds how long a client may keep sending.
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

/** How much of an over-limit body is read and thrown away before the 413 is sent, at most. */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 10_000;

/**
 * Reads and discards what is left of a refused request body (up to 64 MiB or 10 s; a body declared
 * larger is not waited for), so the refusal is
 * sent when the client has finished sending: a server that answers and closes while the client still
 * writes makes the kernel reset the connection, and the client may never read the answer. A client
 * that sent `Expect: 100-continue` sent nothing, and nothing is waited for.
 */
export function drainRequest(req: http.IncomingMessage, expectsContinue: boolean): Promise<void> {
  if (expectsContinue || req.readableEnded || req.destroyed) return Promise.resolve();
  // A body declared larger than what is drained is answered at once (and the connection closed).
  if (Number(req.headers['content-length']) > DRAIN_BYTES) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MS);
    timer.unref();
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}
