/**
 * `deterministic` tools' outputs for one executor: JSON texts by key, the least recently used dropped once
 * the texts together pass `maxChars` characters.
 */
export class MemoryCache {
  private readonly entries = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(key: string): string | undefined {
    const json = this.entries.get(key);
    if (json === undefined) return undefined;
    // Re-inserted: a Map iterates in insertion order, so its first key is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, json);
    return json;
  }

  set(key: string, json: string): void {
    if (json.length > this.maxChars) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.chars -= old.length;
    }
    this.entries.set(key, json);
    this.chars += json.length;
    for (const [oldest, text] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= text.length;
    }
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.chars -= old.length;
  }

  get size(): number {
    return this.entries.size;
  }
}
