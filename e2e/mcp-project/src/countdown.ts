import { getToolContext, tool, type Integer } from '@toolwright/tool';

/** What `countdown` returns. */
export interface CountdownResult {
  counted: Integer;
}

/**
 * Counts down from `from`, reporting progress at every step, 20 ms apart.
 * @param from Where to start counting.
 */
export const countdown = tool(
  async function countdown(/** @minimum 1 @maximum 50 */ from: Integer): Promise<CountdownResult> {
    const context = getToolContext();
    for (let i = 1; i <= from; i++) {
      context?.progress({ progress: i, total: from, message: `${from - i} left` });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { counted: from };
  },
  { tier: 'read-only' },
);
