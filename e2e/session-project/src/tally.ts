import fs from 'node:fs';
import { tool, type Integer } from '@toolwright/tool';

let made = 0;

/** What the tally tools return: which instance answered, and its count so far. */
export interface TallyState {
  instance: Integer;
  count: Integer;
}

/** A toolkit with state, kept per session by the e2e config (`tools.perSession: ["Tally"]`). */
export class Tally {
  private readonly instance = ++made;
  private count = 0;

  /** Adds one to this toolkit instance's count. */
  @tool({ tier: 'read-only' })
  async tallyBump(): Promise<TallyState> {
    return { instance: this.instance, count: ++this.count };
  }

  /** Called when the instance's session ends: notes which instance went, in the server's directory. */
  [Symbol.dispose](): void {
    fs.appendFileSync('disposed.txt', `${this.instance}\n`);
  }
}

/** The same, left one per process. */
export class SharedTally {
  private readonly instance = ++made;
  private count = 0;

  /** Adds one to the process-wide count. */
  @tool({ tier: 'read-only' })
  async sharedBump(): Promise<TallyState> {
    return { instance: this.instance, count: ++this.count };
  }
}

/** A toolkit toolwright cannot construct by itself. */
export class Configured {
  constructor(private readonly prefix: string) {}

  /** Greets with the configured prefix. */
  @tool({ tier: 'read-only' })
  async configuredGreet(name: string): Promise<string> {
    return `${this.prefix} ${name}`;
  }
}
