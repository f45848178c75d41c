import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Config } from '../config.js';
import {
  AppError,
  describeError,
  TaskCancelledError,
  TaskFailedError,
  TaskGoneError,
  TransientWorkerError,
} from '../errors.js';
import type { Logger } from '../logger.js';
import { TaskMessageSchema, type TaskItem, type TaskMessage } from '../tasks/model.js';
import { offloadIfLarge, type ResultStore } from '../tasks/result-store.js';
import type { RunningSlots } from '../tasks/running-slots.js';
import type { TaskQueue } from '../tasks/task-queue.js';
import type { TaskRepository } from '../tasks/task-repository.js';
import { budgetExceededMessage, budgetFor, budgetsOf, type Budgets } from './budget.js';
import { admit, retryDelaySeconds, type Admission } from './fair-share.js';
import type { Job, JobOutput } from './job.js';

/** What the runner itself needs; a job's own needs come on top through `D`. */
export interface RunnerDeps {
  tasks: TaskRepository;
  results: ResultStore;
  queue: TaskQueue;
  slots: RunningSlots;
  logger: Logger;
  now: () => Date;
  config: Pick<
    Config,
    | 'BTS_DESIGN_BUDGET_MS'
    | 'BTS_AGENT_BUDGET_MS'
    | 'BTS_SWEEP_GRACE_MS'
    | 'BTS_MAX_RUNNING_PER_BUSINESS'
    | 'BTS_RETRY_DELAY_S'
  >;
}

export interface TaskRunnerOptions<D extends RunnerDeps> {
  kind: TaskItem['kind'];
  job: Job<D>;
  deps: () => D;
  /** How often a running task re-reads its item to notice a cancel request. */
  cancelPollMs?: number;
  /** Overrides the configured budgets (tests run short ones). */
  budgets?: Budgets;
}

/** Matches the queues' redrive policy: the last delivery ends the task instead of retrying. */
export const MAX_ATTEMPTS = 5;

/**
 * The generic worker: SQS record → claim → job under its time budget → result written.
 * Task-level failures end the task as `failed` and the message is consumed; only
 * infrastructure trouble (DynamoDB/S3/browser launch) is reported as a batch item
 * failure, so SQS redelivers it (and moves it to the DLQ after repeated failures).
 * Batch size is 1 in practice; any N is handled one after another.
 */
export function createTaskHandler<D extends RunnerDeps>(
  opts: TaskRunnerOptions<D>,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const batchItemFailures: SQSBatchItemFailure[] = [];
    // Sequential on purpose: one Chromium shares the container's cores.
    for (const record of event.Records) {
      if (!(await processRecord(record, opts))) batchItemFailures.push({ itemIdentifier: record.messageId });
    }
    return { batchItemFailures };
  };
}

function parseMessage(body: string): TaskMessage | undefined {
  try {
    const parsed = TaskMessageSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Returns false when the record should be redelivered. */
async function processRecord<D extends RunnerDeps>(record: SQSRecord, opts: TaskRunnerOptions<D>): Promise<boolean> {
  const d = opts.deps();
  const message = parseMessage(record.body);
  if (!message || message.kind !== opts.kind) {
    // Retrying a message that can never parse would only loop it into the DLQ.
    d.logger.error('dropping unusable task message', { messageId: record.messageId, worker: opts.kind });
    return true;
  }
  const log = d.logger.createChild({ persistentKeys: { taskId: message.taskId } });
  const budgets = opts.budgets ?? budgetsOf(d.config);
  const budgetMs = budgetFor(opts.kind, budgets);

  let admission: Admission;
  try {
    admission = await admit(d, message, new Date(d.now().getTime() + budgetMs + budgets.graceMs), d.now(), log);
  } catch (err) {
    log.warn('could not check the business running cap; the message will be redelivered', {
      error: describeError(err),
    });
    return false;
  }
  if (!admission.run) return admission.consumed;
  try {
    return await claimAndRun(record, message.taskId, opts, d, log, budgetMs, budgets);
  } finally {
    await admission.release();
  }
}

async function claimAndRun<D extends RunnerDeps>(
  record: SQSRecord,
  taskId: string,
  opts: TaskRunnerOptions<D>,
  d: D,
  log: Logger,
  budgetMs: number,
  budgets: Budgets,
): Promise<boolean> {
  const claimedAt = d.now();
  let task: TaskItem | undefined;
  try {
    task = await d.tasks.claim(taskId, claimedAt, budgetMs + budgets.graceMs);
  } catch (err) {
    log.warn('claim failed; the message will be redelivered', { error: describeError(err) });
    return false;
  }
  if (!task) {
    log.info('task not claimable (running elsewhere, finished or cancelled); message consumed');
    return true;
  }
  log.info('task claimed', { attempt: task.attempts });

  const outcome = await runJob(task, opts, budgetMs, d, log);
  if (outcome.status === 'retry' && (task.attempts ?? 1) < MAX_ATTEMPTS) {
    await scheduleRetry(d, record, task, outcome.error, log);
    return false;
  }
  try {
    await writeOutcome(d, task, outcome, claimedAt, log);
    return true;
  } catch (err) {
    log.warn('could not record the outcome; the message will be redelivered', { error: describeError(err) });
    await releaseLease(d, task.taskId).catch((e: unknown) =>
      log.warn('could not release the lease', { error: describeError(e) }),
    );
    return false;
  }
}

/**
 * A transient failure comes back after a short backoff, not after the queue's visibility
 * timeout (6x the worker timeout): the lease ends and the message becomes visible at
 * `retryAt`, and the sweeper leaves a task with a `retryAt` to its retry.
 */
async function scheduleRetry(
  d: RunnerDeps,
  record: SQSRecord,
  task: TaskItem,
  error: string,
  log: Logger,
): Promise<void> {
  const delayS = retryDelaySeconds(task.attempts ?? 1, d.config.BTS_RETRY_DELAY_S);
  const retryAt = new Date(d.now().getTime() + delayS * 1000).toISOString();
  log.warn('transient failure; retrying after a backoff', { error, delaySeconds: delayS });
  await d.tasks
    .updateRunning(task.taskId, { leaseExpiresAt: retryAt, retryAt, retryError: error }, d.now())
    .catch((err: unknown) => log.warn('could not record the retry on the task', { error: describeError(err) }));
  await d.queue.retryAfter(task.kind, record.receiptHandle, delayS).catch((err: unknown) =>
    log.warn('could not shorten the message visibility; it returns after the queue timeout', {
      error: describeError(err),
    }),
  );
}

/** Lets a redelivery take the task over at once instead of waiting out the lease. */
async function releaseLease(d: RunnerDeps, taskId: string): Promise<void> {
  await d.tasks.updateRunning(taskId, { leaseExpiresAt: new Date(0).toISOString() }, d.now());
}

type Outcome =
  | { status: 'completed'; output: JobOutput }
  | { status: 'failed'; error: string }
  | { status: 'cancelled' }
  | { status: 'retry'; error: string }
  /** The item left `running` under us (swept): nothing to write. */
  | { status: 'gone' };

/** Why the runner stopped a job on its own; an abort reason, not an error. */
interface Stop {
  stop: 'cancelled' | 'gone';
}
const isStop = (v: unknown): v is Stop => typeof v === 'object' && v !== null && 'stop' in v;

async function runJob<D extends RunnerDeps>(
  task: TaskItem,
  opts: TaskRunnerOptions<D>,
  budgetMs: number,
  d: D,
  log: Logger,
): Promise<Outcome> {
  const controller = new AbortController();
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  stopped.catch(() => undefined);
  const timer = setTimeout(
    () => controller.abort(new TaskFailedError(budgetExceededMessage(opts.kind, budgetMs))),
    budgetMs,
  );
  const poll = setInterval(() => {
    d.tasks
      .get(task.taskId)
      .then((now) => {
        if (now?.cancelRequested) controller.abort({ stop: 'cancelled' } satisfies Stop);
        else if (now?.status !== 'running') controller.abort({ stop: 'gone' } satisfies Stop);
      })
      .catch(() => undefined); // a missed poll only delays noticing a cancel
  }, opts.cancelPollMs ?? 2_000);

  const job = opts.job({ task, signal: controller.signal, log, budgetMs, deps: d });
  job.catch(() => undefined); // after an abort the job's late rejection is expected
  try {
    return { status: 'completed', output: await Promise.race([job, stopped]) };
  } catch (err) {
    if (isStop(err)) return { status: err.stop };
    if (err instanceof TaskGoneError) return { status: 'gone' };
    if (err instanceof TaskCancelledError) return { status: 'cancelled' };
    if (err instanceof TransientWorkerError) return { status: 'retry', error: err.message };
    // Errors raised on purpose say what went wrong in words meant for the caller.
    if (err instanceof TaskFailedError || (err instanceof AppError && err.expose))
      return { status: 'failed', error: err.message };
    log.warn('job failed', { error: describeError(err) });
    const label = opts.kind === 'design' ? 'Design extraction failed' : 'Task failed';
    return { status: 'failed', error: `${label}: ${describeError(err)}` };
  } finally {
    clearTimeout(timer);
    clearInterval(poll);
    if (!controller.signal.aborted) controller.abort({ stop: 'gone' } satisfies Stop);
  }
}

async function writeOutcome(
  d: RunnerDeps,
  task: TaskItem,
  outcome: Outcome,
  claimedAt: Date,
  log: Logger,
): Promise<void> {
  const now = d.now();
  const durationMs = now.getTime() - claimedAt.getTime();
  let written: boolean;
  switch (outcome.status) {
    case 'completed': {
      const output = { ...outcome.output, durationMs };
      const fields = await offloadIfLarge(d.results, task, output);
      try {
        written = await d.tasks.finish(task.taskId, 'completed', fields, now);
      } catch (err) {
        // The estimate missed (DynamoDB counts differently): offload everything rather than lose the result.
        if (fields.offloadedKey || (err as { name?: string } | null)?.name !== 'ValidationException') throw err;
        log.warn('task item refused by DynamoDB; offloading the result', { error: describeError(err) });
        written = await d.tasks.finish(
          task.taskId,
          'completed',
          await offloadIfLarge(d.results, task, output, { force: true }),
          now,
        );
      }
      break;
    }
    case 'failed':
    case 'retry':
      written = await d.tasks.finish(task.taskId, 'failed', { error: outcome.error, durationMs }, now);
      break;
    case 'cancelled':
      written = await d.tasks.finish(task.taskId, 'cancelled', { durationMs }, now);
      break;
    case 'gone':
      written = false;
  }
  if (written)
    log.info('task finished', { status: outcome.status === 'retry' ? 'failed' : outcome.status, durationMs });
  else log.info('task already ended elsewhere (cancelled or swept); outcome dropped', { outcome: outcome.status });
}
