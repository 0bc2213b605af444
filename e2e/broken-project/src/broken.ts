import { tool } from '@toolwright/tool';

/** Options of the scheduler. */
export interface ScheduleOptions {
  at: string;
  callback: () => void;
}

/** Schedules a job. */
export const schedule = tool(async function schedule(options: ScheduleOptions) {
  return options.at;
});

/**
 * Runs a generic thing.
 * @tool
 */
export async function runGeneric<T>(value: T): Promise<void> {
  void value;
}
