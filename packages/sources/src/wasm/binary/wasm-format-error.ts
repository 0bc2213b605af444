/** The module's bytes are not what the runner can read or rewrite (checked before any of it runs). */
export class WasmFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WasmFormatError';
  }
}
