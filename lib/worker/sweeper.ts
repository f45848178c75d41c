import { QUEUES, visibilityTimeoutSeconds } from '../aws/resources.js';
import { describeError } from '../errors.js';
import type { UsageRepository } from '../quota/quota-repository.js';
import { refundTask } from '../quota/use-cases.js';
import type { TaskItem } from '../tasks/model.js';
import type { TaskQueue } from '../tasks/task-queue.js';
import { budgetExceededMessage, budgetFor, budgetsOf, type Budgets } from './budget.js';
import type { RunnerDeps } from './run-task.js';

export interface SweeperDeps extends RunnerDeps {
  queue: TaskQueue;
  usage: UsageRepository;
}

/**
 * Repairs what a crashed worker or a lost message leaves behind. Tasks stuck in
 * `running` past their lease (budget + grace) fail with the limit message; `pending`
 * tasks nobody picked up are re-enqueued (a duplicate is harmless: the claim is
 * conditional), and after `pendingFailAfterMs` they fail instead of waiting forever and
 * their quota unit is refunded.
 */
export interface SweepOptions {
  now?: Date;
  budgets?: Budgets;
  /** A pending task older than this is assumed to have lost its message. */
  pendingAfterMs?: number;
  pendingFailAfterMs?: number;
  /** Items looked at per status per run: one sweep stays short. */
  limit?: number;
}

export interface SweepReport {
  failed: string[];
  requeued: string[];
  abandoned: string[];
}

export const PENDING_REQUEUE_AFTER_MS = 5 * 60_000;
export const PENDING_FAIL_AFTER_MS = 60 * 60_000;
export const SWEEP_LIMIT = 50;

/** The longest a scheduled retry's message can take to come back: the queue's visibility timeout. */
const retryPickupMs = (kind: TaskItem['kind']): number =>
  visibilityTimeoutSeconds(kind === 'agent' ? QUEUES.AgentTasks : QUEUES.DesignTasks) * 1000;

/** Re-enqueued ids of this process, so one backlog does not get flooded with duplicates. */
const recentlyRequeued = new Map<string, number>();

/** The condition "unchanged since we read it": updatedAt strictly before the next millisecond. */
const unchangedSince = (t: TaskItem): string => new Date(Date.parse(t.updatedAt) + 1).toISOString();

export async function sweepOnce(d: SweeperDeps, opts: SweepOptions = {}): Promise<SweepReport> {
  const now = opts.now ?? d.now();
  const budgets = opts.budgets ?? budgetsOf(d.config);
  const limit = opts.limit ?? SWEEP_LIMIT;
  const pendingAfterMs = opts.pendingAfterMs ?? PENDING_REQUEUE_AFTER_MS;
  const pendingFailAfterMs = opts.pendingFailAfterMs ?? PENDING_FAIL_AFTER_MS;
  const report: SweepReport = { failed: [], requeued: [], abandoned: [] };
  const log = d.logger.createChild({ persistentKeys: { worker: 'sweeper' } });

  const shortest = Math.min(budgets.designBudgetMs, budgets.agentBudgetMs) + budgets.graceMs;
  const running = await d.tasks.listByStatus('running', new Date(now.getTime() - shortest).toISOString(), limit);
  for (const t of running) {
    if (t.retryAt) {
      // A transient failure scheduled a retry: its message comes back at retryAt (or, if
      // the visibility change was lost, one visibility timeout later). Until then the task
      // belongs to that retry; after it, the failure is reported as what it was.
      if (Date.parse(t.retryAt) + retryPickupMs(t.kind) >= now.getTime()) continue;
      const error = `The task failed on a transient error and its retry never started: ${t.retryError ?? 'unknown error'}`;
      if (
        await d.tasks.failUnlessTerminal(t.taskId, error, now, { status: 'running', updatedBefore: unchangedSince(t) })
      )
        report.failed.push(t.taskId);
      continue;
    }
    const budgetMs = budgetFor(t.kind, budgets);
    const leaseEnd = t.leaseExpiresAt
      ? Date.parse(t.leaseExpiresAt)
      : Date.parse(t.updatedAt) + budgetMs + budgets.graceMs;
    if (leaseEnd >= now.getTime()) continue;
    const message = budgetExceededMessage(t.kind, budgetMs);
    if (
      await d.tasks.failUnlessTerminal(t.taskId, message, now, { status: 'running', updatedBefore: unchangedSince(t) })
    ) {
      report.failed.push(t.taskId);
      log.warn('failed a task stuck in running', { taskId: t.taskId });
    }
  }

  const pending = await d.tasks.listByStatus('pending', new Date(now.getTime() - pendingAfterMs).toISOString(), limit);
  for (const t of pending) {
    if (now.getTime() - Date.parse(t.createdAt) > pendingFailAfterMs) {
      const minutes = Math.round(pendingFailAfterMs / 60_000);
      const error = `The task was not picked up by a worker within ${minutes} minutes; submit it again`;
      if (
        await d.tasks.failUnlessTerminal(t.taskId, error, now, { status: 'pending', updatedBefore: unchangedSince(t) })
      ) {
        report.abandoned.push(t.taskId);
        // It never ran: the caller gets the unit back. Only the sweep that won the
        // conditional write refunds, so a unit is returned once.
        await refundTask(d, t.businessId, t.createdAt).catch((err: unknown) =>
          log.error('refund of an abandoned task failed', { taskId: t.taskId, error: describeError(err) }),
        );
      }
      continue;
    }
    const last = recentlyRequeued.get(t.taskId);
    if (last !== undefined && now.getTime() - last < pendingAfterMs) continue;
    try {
      await d.queue.send({ taskId: t.taskId, kind: t.kind });
      recentlyRequeued.set(t.taskId, now.getTime());
      report.requeued.push(t.taskId);
    } catch (err) {
      log.warn('re-enqueue failed; next sweep retries', { taskId: t.taskId, error: describeError(err) });
    }
  }
  // Forget old entries so the map stays as small as the backlog.
  for (const [id, at] of recentlyRequeued) if (now.getTime() - at > pendingAfterMs) recentlyRequeued.delete(id);
  if (report.failed.length || report.requeued.length || report.abandoned.length) log.info('sweep done', { ...report });
  return report;
}

/** The local runtime's stand-in for the EventBridge schedule; returns its stop function. */
export function startSweeperTimer(deps: () => SweeperDeps, intervalMs = 30_000): () => Promise<void> {
  let inFlight: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (inFlight) return; // never overlap two sweeps
    const d = deps();
    inFlight = sweepOnce(d)
      .catch((err: unknown) => d.logger.warn('sweep failed', { error: describeError(err) }))
      .finally(() => {
        inFlight = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await inFlight;
  };
}
