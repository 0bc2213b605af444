/** The module asks, before it runs, for more memory (or table entries) than its cap allows. */
export class MemoryCapError extends Error {
  constructor(
    readonly what: 'memory' | 'table',
    /** Pages of 64 KiB for a memory, entries for a table. */
    readonly asked: number,
    readonly cap: number,
  ) {
    super(`the module's ${what} starts at ${asked} ${what === 'memory' ? 'pages' : 'entries'}, above its cap of ${cap}`);
    this.name = 'MemoryCapError';
  }
}
