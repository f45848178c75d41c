import { RunTimeoutError } from './errors.js';
import { DEFAULT_POLL, pollDelay, sleep, type PollPacing } from './retry.js';
import type { StepSummary, TaskStatus, TaskView } from './types.gen.js';

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

export interface WaitOptions {
  /** Stops waiting (the task goes on on the server); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Gives up after this long with a RunTimeoutError carrying the last task seen. Default 5 minutes. */
  timeoutMs?: number;
  /** Called with the step summaries that appeared since the last call, oldest first. */
  onProgress?: (newSteps: StepSummary[], task: TaskView) => void;
  pollInterval?: Partial<PollPacing>;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 5 * 60_000;

/** Marks the run's own deadline, so it is told apart from the caller's abort. */
class Deadline extends Error {}

/**
 * Polls `read` until the task is terminal. The deadline also aborts a read in flight, so
 * a slow answer cannot hold the caller past `timeoutMs`.
 */
export async function waitForTask(
  taskId: string,
  read: (signal: AbortSignal) => Promise<TaskView>,
  opts: WaitOptions = {},
): Promise<TaskView> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const pacing = { ...DEFAULT_POLL, ...opts.pollInterval };
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) controller.abort(opts.signal.reason);
  const timer = setTimeout(() => controller.abort(new Deadline()), timeoutMs);
  let last: TaskView | undefined;
  let seenSteps = 0;
  try {
    for (let poll = 0; ; poll++) {
      last = await read(controller.signal);
      const fresh = last.stepSummaries.filter((s) => s.n > seenSteps);
      if (fresh.length) {
        seenSteps = Math.max(seenSteps, ...fresh.map((s) => s.n));
        opts.onProgress?.(fresh, last);
      }
      if (TERMINAL_STATUSES.has(last.status)) return last;
      await sleep(pollDelay(poll, pacing), controller.signal);
    }
  } catch (err) {
    if (controller.signal.reason instanceof Deadline && !opts.signal?.aborted)
      throw new RunTimeoutError(taskId, last, timeoutMs);
    throw err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
