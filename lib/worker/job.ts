import type { Logger } from '../logger.js';
import type { TaskItem } from '../tasks/model.js';
import type { TaskProgress } from '../tasks/task-repository.js';

/** What a job gets for one claimed task; `D` is whatever the job needs beyond the runner's own deps. */
export interface JobContext<D> {
  task: TaskItem;
  /** Aborted when the budget runs out or a cancel is requested. */
  signal: AbortSignal;
  log: Logger;
  budgetMs: number;
  deps: D;
}

/** What a job writes on completion; extra internal fields (timings) are allowed. */
export type JobOutput = TaskProgress & Record<string, unknown>;

/** The work of one task kind (design extraction, agent run); lib/worker runs it, knowing nothing of it. */
export type Job<D> = (ctx: JobContext<D>) => Promise<JobOutput>;
