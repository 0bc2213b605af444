import { tool } from '@toolwright/tool';

/** Greeting tools bound to a configured name. */
export class GreetingKit {
  constructor(private readonly greeting: string) {}

  /** Greets someone by name. */
  @tool({ tier: 'read-only', group: 'meta' })
  async greet(name: string, shout?: boolean): Promise<string> {
    const text = `${this.greeting}, ${name}`;
    return shout ? text.toUpperCase() : text;
  }
}
