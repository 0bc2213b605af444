/** The full text of recent outputs by call id, so a truncated result can still be read in full. Bounded (LRU). */
export class FullOutputStore {
  private readonly entries = new Map<string, string>();

  constructor(readonly capacity: number) {}

  set(callId: string, text: string): void {
    this.entries.delete(callId);
    this.entries.set(callId, text);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  get(callId: string): string | undefined {
    return this.entries.get(callId);
  }
}
