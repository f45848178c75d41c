import type { TaskItem, TaskStatus } from './model.js';

/** Fields a running task may change; the lifecycle fields go through the methods below. */
export type TaskProgress = Partial<
  Pick<
    TaskItem,
    | 'result'
    | 'structured_content'
    | 'html_dump'
    | 'design'
    | 'totalSteps'
    | 'durationMs'
    | 'visitedUrls'
    | 'stepSummaries'
    | 'error'
    | 'offloadedKey'
    | 'usage'
    | 'designTimings'
    | 'leaseExpiresAt'
    | 'retryAt'
    | 'retryError'
  >
>;

/** What a progress write learns about the task, so a job needs no separate cancel check. */
export type RunningState = 'running' | 'cancel-requested' | 'gone';

/** Tasks table: one item per task; the lifecycle is a set of conditional transitions. */
export interface TaskRepository {
  create(item: TaskItem): Promise<void>;
  get(taskId: string): Promise<TaskItem | undefined>;
  delete(taskId: string): Promise<void>;
  batchGet(taskIds: string[]): Promise<TaskItem[]>;
  listBySession(sessionId: string): Promise<TaskItem[]>;
  /** `pending` → `running`, or takes over a `running` task whose lease expired. */
  claim(taskId: string, now: Date, leaseMs: number): Promise<TaskItem | undefined>;
  /**
   * Records progress of a running task and tells the job whether to go on: `running`,
   * `cancel-requested` (progress kept; the job should stop at once) or `gone` (the item
   * left `running`: swept or ended elsewhere, nothing was written).
   */
  updateRunning(taskId: string, progress: TaskProgress, now: Date): Promise<RunningState>;
  /** Ends a running task; false if it already ended (terminal statuses are never overwritten). */
  finish(
    taskId: string,
    status: Exclude<TaskStatus, 'pending' | 'running'>,
    progress: TaskProgress,
    now: Date,
  ): Promise<boolean>;
  /** Fails a task that is not yet terminal (enqueue failure, sweeper). */
  failUnlessTerminal(
    taskId: string,
    error: string,
    now: Date,
    onlyIf?: { status: TaskStatus; updatedBefore?: string },
  ): Promise<boolean>;
  /** Cancels a pending task at once, or flags a running one to stop at its next step. */
  requestCancel(taskId: string, now: Date): Promise<'cancelled' | 'flagged' | 'terminal'>;
  listByStatus(status: TaskStatus, updatedBefore: string, limit: number): Promise<TaskItem[]>;
}
