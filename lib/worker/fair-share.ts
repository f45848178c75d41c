import type { Config } from '../config.js';
import { describeError } from '../errors.js';
import type { Logger } from '../logger.js';
import { TERMINAL_STATUSES, type TaskMessage } from '../tasks/model.js';
import type { RunningSlots } from '../tasks/running-slots.js';
import type { TaskQueue } from '../tasks/task-queue.js';
import type { TaskRepository } from '../tasks/task-repository.js';

/** How long a task over its business's cap waits before it is offered to a worker again. */
export const FAIR_SHARE_DELAY_S = 15;

export interface FairShareDeps {
  tasks: TaskRepository;
  queue: TaskQueue;
  slots: RunningSlots;
  config: Pick<Config, 'BTS_MAX_RUNNING_PER_BUSINESS'>;
}

/**
 * What to do with a message before claiming its task: run it (holding a slot of its
 * business, to release when done), or not run it now. A business at its cap
 * (BTS_MAX_RUNNING_PER_BUSINESS) gets its message sent again with a delay, so one
 * business's burst cannot take every worker; a new message rather than a visibility
 * change, because each receive counts towards the queue's DLQ redrive.
 */
export type Admission = { run: true; release: () => Promise<void> } | { run: false; consumed: boolean };

export async function admit(
  d: FairShareDeps,
  message: TaskMessage,
  leaseUntil: Date,
  now: Date,
  log: Logger,
): Promise<Admission> {
  const cap = d.config.BTS_MAX_RUNNING_PER_BUSINESS;
  if (cap <= 0) return { run: true, release: async () => undefined };
  const task = await d.tasks.get(message.taskId);
  // Unknown or finished: nothing to schedule; the claim would refuse it anyway.
  if (!task || TERMINAL_STATUSES.has(task.status)) return { run: true, release: async () => undefined };
  if (await d.slots.acquire(task.businessId, task.taskId, cap, leaseUntil, now)) {
    return {
      run: true,
      release: () =>
        d.slots
          .release(task.businessId, task.taskId)
          .catch((err: unknown) => log.warn('could not release the running slot', { error: describeError(err) })),
    };
  }
  try {
    await d.queue.send(message, { delaySeconds: FAIR_SHARE_DELAY_S });
  } catch (err) {
    log.warn('business at its running cap and the deferral failed; the message will be redelivered', {
      error: describeError(err),
    });
    return { run: false, consumed: false };
  }
  log.info('business at its running cap; task deferred', {
    businessId: task.businessId,
    cap,
    delaySeconds: FAIR_SHARE_DELAY_S,
  });
  return { run: false, consumed: true };
}

/** Backoff of the n-th transient failure: the configured base, doubled per attempt, at most 5 minutes. */
export const retryDelaySeconds = (attempt: number, baseSeconds: number): number =>
  Math.min(300, baseSeconds * 2 ** Math.max(0, attempt - 1));
