import { getToolContext, tool } from '@toolwright/tool';

// The tools the suite's Tasks scenarios (io.modelcontextprotocol/tasks) call. A tool declared with `task` becomes a
// task when it runs longer than a moment for a client that declares the extension; a quick one answers at once.

/** Waits `ms`, or until the call is cancelled. */
function pause(ms: number): Promise<void> {
  const signal = getToolContext()?.signal;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });
}

/**
 * Greets someone.
 * @param name Who to greet.
 */
export const greet = tool(
  async function greet(name: string): Promise<string> {
    return `Hello, ${name}!`;
  },
  { tier: 'read-only' },
);

/**
 * Computes for a while.
 * @param seconds How long to compute.
 * @param label A name for the computation.
 */
export const slow_compute = tool(
  async function slow_compute(/** @minimum 0 @maximum 60 */ seconds: number, label?: string): Promise<string> {
    await pause(seconds * 1000);
    return `Computed ${label ?? 'something'} for ${seconds} seconds`;
  },
  { tier: 'read-only', task: 'optional', timeout: '2m' },
);

/** Works a second, then fails as a tool does. */
export const failing_job = tool(
  async function failing_job(): Promise<string> {
    await pause(1000);
    throw new Error('the job failed, as it always does');
  },
  { tier: 'read-only', task: 'required' },
);

/** Works a moment, then answers outside its declared result type: the server cannot give a result (a protocol error). */
export const protocol_error_job = tool(
  async function protocol_error_job(): Promise<number> {
    await pause(500);
    return 'not a number' as unknown as number;
  },
  { tier: 'read-only', task: 'optional' },
);

/**
 * Looks at what it would delete (a moment), then asks for confirmation.
 * @param filename What to delete.
 */
export const confirm_delete = tool(
  async function confirm_delete(filename?: string): Promise<string> {
    await pause(500);
    const answer = await getToolContext()!.elicit(`Delete ${filename ?? 'the scratch files'}?`, {
      type: 'object',
      properties: { confirm: { type: 'boolean' } },
      required: ['confirm'],
    });
    return answer.action === 'accept' && answer.content.confirm ? `Deleted ${filename ?? 'the scratch files'} (pretend)` : 'Nothing deleted';
  },
  { tier: 'read-only', task: 'optional' },
);

/** Works a moment, then asks two things at once. */
export const multi_input = tool(
  async function multi_input(): Promise<string> {
    await pause(500);
    const form = (message: string) =>
      ({ kind: 'form', message, schema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } }) as const;
    const { first, second } = await getToolContext()!.ask({ first: form('First value?'), second: form('Second value?') });
    const value = (answer: typeof first) => (answer.action === 'accept' ? answer.content.value : answer.action);
    return `first: ${value(first)}, second: ${value(second)}`;
  },
  { tier: 'read-only', task: 'optional' },
);

/** Asks the person's name at once, then works on it a while (as a task). */
export const test_tool_with_task = tool(
  async function test_tool_with_task(): Promise<string> {
    const { user_name } = await getToolContext()!.ask({
      user_name: { kind: 'form', message: 'What is your name?', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    });
    if (user_name.action !== 'accept') return `Not introduced (${user_name.action})`;
    await pause(1000);
    return `Hello, ${user_name.content.name}! (worked on as a task)`;
  },
  { tier: 'read-only', task: 'required' },
);
