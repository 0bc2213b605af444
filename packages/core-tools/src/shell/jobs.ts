import { randomBytes } from 'node:crypto';
import type { RunningProcess, ProcessOutcome } from './run-process.js';
import { CoreToolError } from '../core-tool-error.js';

export interface Job {
  id: string;
  command: string;
  process: RunningProcess;
  outcome?: ProcessOutcome;
  /** Where the job runs (see `ShellResult.ranIn`). */
  ranIn?: 'sandbox' | 'host' | 'escalated';
  /** The limits the job ran into, known once it has finished (see `ShellResult.limitsReached`). */
  limitsReached?: string[];
}

/** Background commands of one environment, by id; finished jobs are kept until read or evicted. */
export class JobTable {
  private readonly jobs = new Map<string, Job>();

  constructor(private readonly maxJobs: number) {}

  start(command: string, process: RunningProcess): Job {
    if (this.jobs.size >= this.maxJobs) this.evictFinished();
    if (this.jobs.size >= this.maxJobs) {
      throw new CoreToolError(
        'too_many_jobs',
        `${this.maxJobs} background jobs are already running; wait for one (shell_job_output) or stop one (shell_job_kill) first.`,
      );
    }
    const job: Job = { id: `job_${randomBytes(6).toString('hex')}`, command, process };
    void process.done.then((outcome) => {
      job.outcome = outcome;
    });
    this.jobs.set(job.id, job);
    return job;
  }

  get(id: string): Job {
    const job = this.jobs.get(id);
    if (!job) {
      const known = [...this.jobs.keys()];
      throw new CoreToolError(
        'unknown_job',
        `There is no background job '${id}'.${known.length ? ` Known jobs: ${known.join(', ')}.` : ' No jobs are running.'}`,
      );
    }
    return job;
  }

  forget(id: string): void {
    this.jobs.delete(id);
  }

  /** Stops every job (when the environment is disposed). */
  killAll(): void {
    for (const job of this.jobs.values()) if (!job.outcome) job.process.kill();
  }

  private evictFinished(): void {
    for (const [id, job] of this.jobs) if (job.outcome) this.jobs.delete(id);
  }
}
