/** A configuration `serveHttp` refuses to start with (the CLI reports it as a usage error). */
export class HttpServeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HttpServeError';
  }
}
