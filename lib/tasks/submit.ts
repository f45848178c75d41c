import { randomUUID } from 'node:crypto';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { AuthContext } from '../auth/authenticate.js';
import type { Deps } from '../deps.js';
import { EnqueueError, ForbiddenError, NotFoundError, QuotaExceededError, ValidationError } from '../errors.js';
import { quotaMonth } from '../quota/quota-repository.js';
import type { SessionItem } from '../sessions/session-repository.js';
import type { AgentRequest, DesignRequest, TaskItem } from './model.js';

export interface SubmitAgentInput {
  endUserId: string;
  task: string;
  sessionId?: string;
  agent: AgentRequest;
}

export interface Submitted {
  taskId: string;
  sessionId: string;
  status: 'pending';
  createdAt: string;
}

/** Counts one task against the business's monthly quota, or throws the 429. */
async function consumeQuota(deps: Deps, businessId: string, now: Date): Promise<() => Promise<void>> {
  const month = quotaMonth(now);
  const limit = (await deps.businesses.get(businessId))?.monthlyQuota ?? deps.defaultQuota;
  const r = await deps.usage.consume(businessId, month, limit);
  if (!r.ok) throw new QuotaExceededError(limit, r.used);
  return () => deps.usage.refund(businessId, month);
}

/** A fresh `pending` task item; the worker tests build theirs with it too. */
export function newTaskItem(base: {
  businessId: string;
  sessionId: string;
  endUserId: string;
  task: string;
  kind: TaskItem['kind'];
  now: Date;
}): TaskItem {
  const taskId = randomUUID();
  const createdAt = base.now.toISOString();
  return {
    taskId,
    businessId: base.businessId,
    sessionId: base.sessionId,
    endUserId: base.endUserId,
    task: base.task,
    kind: base.kind,
    status: 'pending',
    createdAt,
    updatedAt: createdAt,
    sessionSort: `${createdAt}#${taskId}`,
    totalSteps: 0,
    durationMs: 0,
    visitedUrls: [],
    stepSummaries: [],
  };
}

/** The session row a new session starts with: this task is its first and latest turn. */
function firstTurn(item: TaskItem): SessionItem {
  return {
    sessionId: item.sessionId,
    businessId: item.businessId,
    endUserId: item.endUserId,
    firstTaskId: item.taskId,
    latestTaskId: item.taskId,
    latestCreatedAt: item.createdAt,
    turnCount: 1,
    createdAt: item.createdAt,
    kind: item.kind,
  };
}

/**
 * POST /v1/tasks. DynamoDB Local has no transactions, so each step that follows the
 * quota count compensates on failure: the caller never pays for a task that cannot run.
 */
export async function submitAgentTask(deps: Deps, auth: AuthContext, input: SubmitAgentInput, log: Logger): Promise<Submitted> {
  let existing: SessionItem | undefined;
  if (input.sessionId !== undefined) {
    existing = await deps.sessions.get(input.sessionId);
    if (!existing) throw new NotFoundError('Session not found');
    if (existing.businessId !== auth.businessId) throw new ForbiddenError('This session belongs to another business');
    if (existing.kind !== 'agent') throw new ValidationError('sessionId names a design-extraction session, which cannot be continued');
  }
  const now = deps.now();
  const refund = await consumeQuota(deps, auth.businessId, now);
  const sessionId = existing?.sessionId ?? randomUUID();
  const item = newTaskItem({ businessId: auth.businessId, sessionId, endUserId: input.endUserId, task: input.task, kind: 'agent', now });
  item.agent = input.agent;
  try {
    await deps.tasks.create(item);
  } catch (err) {
    await refund();
    throw err;
  }
  try {
    if (existing) {
      if (!(await deps.sessions.appendTurn(sessionId, auth.businessId, item.taskId, item.createdAt))) {
        throw new ForbiddenError('This session belongs to another business');
      }
    } else {
      await deps.sessions.create(firstTurn(item));
    }
  } catch (err) {
    await deps.tasks.delete(item.taskId);
    await refund();
    throw err;
  }
  log.appendPersistentKeys({ taskId: item.taskId });
  try {
    await deps.queue.send({ taskId: item.taskId, kind: 'agent' });
  } catch (err) {
    log.error('enqueue failed', { error: err instanceof Error ? err.message : String(err) });
    await deps.tasks.failUnlessTerminal(item.taskId, 'Failed to enqueue the task for execution; it was not run. Submit it again.', deps.now());
    await refund();
    throw new EnqueueError('Failed to enqueue the task; it was not run and was not counted. Retry the request.', err, {
      taskId: item.taskId,
    });
  }
  return { taskId: item.taskId, sessionId, status: 'pending', createdAt: item.createdAt };
}

export interface SubmitDesignInput {
  endUserId: string;
  design: DesignRequest;
}

/** POST /v1/design/extract[/{extractor}]: always a fresh single-task session. */
export async function submitDesignTask(deps: Deps, auth: AuthContext, input: SubmitDesignInput, log: Logger): Promise<Submitted> {
  const now = deps.now();
  const refund = await consumeQuota(deps, auth.businessId, now);
  const sessionId = randomUUID();
  const item = newTaskItem({
    businessId: auth.businessId,
    sessionId,
    endUserId: input.endUserId,
    task: `Extract design (${input.design.extractors.join(', ')}) from ${input.design.url}`,
    kind: 'design',
    now,
  });
  item.designRequest = input.design;
  const undo = async () => {
    await deps.tasks.delete(item.taskId).catch(() => undefined);
    await deps.sessions.delete(sessionId).catch(() => undefined);
    await refund();
  };
  try {
    await deps.tasks.create(item);
    await deps.sessions.create(firstTurn(item));
  } catch (err) {
    await undo();
    throw err;
  }
  log.appendPersistentKeys({ taskId: item.taskId });
  try {
    await deps.queue.send({ taskId: item.taskId, kind: 'design' });
  } catch (err) {
    log.error('enqueue failed', { error: err instanceof Error ? err.message : String(err) });
    // SPEC §3: no task record survives a failed design enqueue.
    await undo();
    throw new EnqueueError('Failed to enqueue the design extraction; nothing was stored or counted. Retry the request.', err);
  }
  return { taskId: item.taskId, sessionId, status: 'pending', createdAt: item.createdAt };
}
