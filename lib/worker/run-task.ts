import type { Logger } from '@aws-lambda-powertools/logger';
import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { config } from '../config.js';
import { deps as defaultDeps, type Deps } from '../deps.js';
import { TaskCancelledError, TaskFailedError, TransientWorkerError } from '../errors.js';
import { logger } from '../logger.js';
import { TaskMessageSchema, type TaskItem, type TaskMessage } from '../tasks/model.js';
import { offloadIfLarge } from '../tasks/result-store.js';
import type { TaskProgress } from '../tasks/task-repository.js';
import { budgetExceededMessage, budgetFor, type Budgets } from './budget.js';

/**
 * The generic worker: SQS record → claim → job under its time budget → result written.
 * Task-level failures end the task as `failed` and the message is consumed; only
 * infrastructure trouble (DynamoDB/S3/browser launch) is reported as a batch item
 * failure, so SQS redelivers it (and moves it to the DLQ after repeated failures).
 */


export interface JobContext {
  task: TaskItem;
  /** Aborted when the budget runs out or a cancel is requested. */
  signal: AbortSignal;
  log: Logger;
  budgetMs: number;
}

/** What a job writes on completion; extra internal fields (timings) are allowed. */
export type JobOutput = TaskProgress & Record<string, unknown>;
export type Job = (ctx: JobContext) => Promise<JobOutput>;

export interface TaskRunnerOptions {
  kind: TaskItem['kind'];
  job: Job;
  /** How often a running task re-reads its item to notice a cancel request. */
  cancelPollMs?: number;
  deps?: () => Deps;
  budgets?: () => Budgets;
}

/** Matches the queues' redrive policy: the last delivery ends the task instead of retrying. */
export const MAX_ATTEMPTS = 5;

const configBudgets = (): Budgets => {
  const c = config();
  return { designBudgetMs: c.BTS_DESIGN_BUDGET_MS, agentBudgetMs: c.BTS_AGENT_BUDGET_MS, graceMs: c.BTS_SWEEP_GRACE_MS };
};

/** A Lambda SQS handler (batch size 1 in practice, any N handled one after another). */
export function createTaskHandler(opts: TaskRunnerOptions): (event: SQSEvent) => Promise<SQSBatchResponse> {
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

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Returns false when the record should be redelivered. */
async function processRecord(record: SQSRecord, opts: TaskRunnerOptions): Promise<boolean> {
  const message = parseMessage(record.body);
  if (!message || message.kind !== opts.kind) {
    // Retrying a message that can never parse would only loop it into the DLQ.
    logger().error('dropping unusable task message', { messageId: record.messageId, worker: opts.kind });
    return true;
  }
  const log = logger().createChild({ persistentKeys: { taskId: message.taskId } });
  const d = (opts.deps ?? defaultDeps)();
  const budgets = (opts.budgets ?? configBudgets)();
  const budgetMs = budgetFor(opts.kind, budgets);

  const claimedAt = d.now();
  let task: TaskItem | undefined;
  try {
    task = await d.tasks.claim(message.taskId, claimedAt, budgetMs + budgets.graceMs);
  } catch (err) {
    log.warn('claim failed; the message will be redelivered', { error: errorText(err) });
    return false;
  }
  if (!task) {
    log.info('task not claimable (running elsewhere, finished or cancelled); message consumed');
    return true;
  }
  log.info('task claimed', { attempt: task.attempts });

  const outcome = await runJob(task, opts, budgetMs, d, log);
  if (outcome.status === 'retry' && (task.attempts ?? 1) < MAX_ATTEMPTS) {
    log.warn('transient failure; releasing the lease for a retry', { error: outcome.error });
    await releaseLease(d, task.taskId).catch(() => undefined);
    return false;
  }
  try {
    await writeOutcome(d, task, outcome, claimedAt, log);
    return true;
  } catch (err) {
    log.warn('could not record the outcome; the message will be redelivered', { error: errorText(err) });
    await releaseLease(d, task.taskId).catch(() => undefined);
    return false;
  }
}

/** Lets a redelivery take the task over at once instead of waiting out the lease. */
function releaseLease(d: Deps, taskId: string): Promise<boolean> {
  return d.tasks.updateRunning(taskId, { leaseExpiresAt: new Date(0).toISOString() }, d.now());
}

type Outcome =
  | { status: 'completed'; output: JobOutput }
  | { status: 'failed'; error: string }
  | { status: 'cancelled' }
  | { status: 'retry'; error: string }
  /** The item left `running` under us (swept): nothing to write. */
  | { status: 'gone' };

class StopSignal extends Error {
  constructor(readonly why: 'cancelled' | 'gone') {
    super(why);
  }
}

async function runJob(task: TaskItem, opts: TaskRunnerOptions, budgetMs: number, d: Deps, log: Logger): Promise<Outcome> {
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
        if (now?.cancelRequested) controller.abort(new StopSignal('cancelled'));
        else if (now?.status !== 'running') controller.abort(new StopSignal('gone'));
      })
      .catch(() => undefined); // a missed poll only delays noticing a cancel
  }, opts.cancelPollMs ?? 2_000);

  const job = opts.job({ task, signal: controller.signal, log, budgetMs });
  job.catch(() => undefined); // after an abort the job's late rejection is expected
  try {
    return { status: 'completed', output: await Promise.race([job, stopped]) };
  } catch (err) {
    if (err instanceof StopSignal) return { status: err.why };
    if (err instanceof TaskCancelledError) return { status: 'cancelled' };
    if (err instanceof TransientWorkerError) return { status: 'retry', error: err.message };
    if (err instanceof TaskFailedError) return { status: 'failed', error: err.message };
    log.warn('job failed', { error: errorText(err) });
    const label = opts.kind === 'design' ? 'Design extraction failed' : 'Task failed';
    // Playwright errors carry a multi-line call log; the first line is the useful part.
    return { status: 'failed', error: `${label}: ${errorText(err).split('\n')[0]?.slice(0, 500) ?? 'unknown error'}` };
  } finally {
    clearTimeout(timer);
    clearInterval(poll);
    if (!controller.signal.aborted) controller.abort(new StopSignal('gone'));
  }
}

async function writeOutcome(d: Deps, task: TaskItem, outcome: Outcome, claimedAt: Date, log: Logger): Promise<void> {
  const now = d.now();
  const durationMs = now.getTime() - claimedAt.getTime();
  let written: boolean;
  switch (outcome.status) {
    case 'completed': {
      const fields = await offloadIfLarge(d.results, task, { ...outcome.output, durationMs });
      written = await d.tasks.finish(task.taskId, 'completed', fields, now);
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
  if (written) log.info('task finished', { status: outcome.status === 'retry' ? 'failed' : outcome.status, durationMs });
  else log.info('task already ended elsewhere (cancelled or swept); outcome dropped', { outcome: outcome.status });
}
