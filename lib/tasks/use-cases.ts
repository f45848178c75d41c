import { randomUUID } from 'node:crypto';
import type { KnowledgeIndex } from '../knowledge/index.js';
import { checkLookup } from '../knowledge/recipes.js';
import type { AuthContext } from '../auth-context.js';
import {
  ConflictError,
  describeError,
  EnqueueError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '../errors.js';
import type { Logger } from '../logger.js';
import { TASK_RETENTION_DAYS } from '../aws/resources.js';
import type { Config } from '../config.js';
import { compensate, consumeQuota, type QuotaDeps } from '../quota/use-cases.js';
import {
  firstTurn,
  toTaskView,
  type AgentRequest,
  type DesignRequest,
  type SessionItem,
  type SessionSummary,
  type TaskItem,
  type TaskView,
} from './model.js';
import { inlineOffloaded, type ResultStore } from './result-store.js';
import { fitTaskView, RESPONSE_BUDGET_BYTES } from './view-limits.js';
import type { SessionRepository } from './session-repository.js';
import type { TaskQueue } from './task-queue.js';
import type { TaskRepository } from './task-repository.js';
import type { CancelledTask, Session, Submitted } from './schemas.js';

/** What the task use cases need; lib/deps.ts provides it. */
export interface TaskDeps extends QuotaDeps {
  config: Pick<Config, 'BTS_DEFAULT_QUOTA' | 'BTS_MODEL_PROVIDER' | 'BTS_ASSET_URL_TTL_S'>;
  tasks: TaskRepository;
  sessions: SessionRepository;
  queue: TaskQueue;
  results: ResultStore;
  logger: Logger;
  knowledge: () => Promise<KnowledgeIndex>;
  now: () => Date;
}

export type { Submitted };

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
    expiresAt: Math.floor(base.now.getTime() / 1000) + TASK_RETENTION_DAYS * 86_400,
  };
}

export interface SubmitAgentInput {
  endUserId: string;
  task: string;
  sessionId?: string;
  agent: AgentRequest;
}

/** The session a follow-up turn continues, checked for ownership and kind before anything is counted. */
async function sessionToContinue(
  deps: Pick<TaskDeps, 'sessions'>,
  auth: AuthContext,
  sessionId: string,
  endUserId: string,
): Promise<SessionItem> {
  const existing = await deps.sessions.get(sessionId);
  if (!existing) throw new NotFoundError('Session not found');
  if (existing.businessId !== auth.businessId) throw new ForbiddenError('This session belongs to another business');
  if (existing.kind !== 'agent')
    throw new ValidationError('sessionId names a design-extraction session, which cannot be continued');
  // A session's history and browser state are one end-user's; another end-user must not be fed them.
  if (existing.endUserId !== endUserId)
    throw new ValidationError(
      'sessionId belongs to another endUserId; a session is continued by the end-user who started it',
    );
  return existing;
}

/**
 * POST /v1/tasks. DynamoDB Local has no transactions, so each step that follows the
 * quota count compensates on failure: the caller never pays for a task that cannot run.
 */
export async function submitAgentTask(deps: TaskDeps, auth: AuthContext, input: SubmitAgentInput): Promise<Submitted> {
  // Checked before anything is counted: a bad recipe call is the caller's 400, and without
  // a model every other agent task would fail. Lookup tasks need no model.
  if (input.agent.lookup) checkLookup(await deps.knowledge(), input.agent.lookup);
  else if (!deps.config.BTS_MODEL_PROVIDER) {
    throw new ServiceUnavailableError(
      'This deployment has no agent model configured, so agent tasks cannot run; nothing was counted. Design extractions and lookup tasks (the `lookup` field) still work.',
    );
  }
  const existing =
    input.sessionId === undefined ? undefined : await sessionToContinue(deps, auth, input.sessionId, input.endUserId);
  const now = deps.now();
  const refund = await consumeQuota(deps, auth.businessId, now);
  const sessionId = existing?.sessionId ?? randomUUID();
  const item = newTaskItem({
    businessId: auth.businessId,
    sessionId,
    endUserId: input.endUserId,
    task: input.task,
    kind: 'agent',
    now,
  });
  item.agent = input.agent;
  try {
    await deps.tasks.create(item);
  } catch (err) {
    await compensate(deps.logger, [], refund);
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
    await compensate(deps.logger, [['task delete', () => deps.tasks.delete(item.taskId)]], refund);
    throw err;
  }
  deps.logger.appendPersistentKeys({ taskId: item.taskId });
  try {
    await deps.queue.send({ taskId: item.taskId, kind: 'agent' });
  } catch (err) {
    deps.logger.error('enqueue failed', { error: describeError(err) });
    const error = 'Failed to enqueue the task for execution; it was not run. Submit it again.';
    await compensate(
      deps.logger,
      [['mark failed', () => deps.tasks.failUnlessTerminal(item.taskId, error, deps.now())]],
      refund,
    );
    throw new EnqueueError('Failed to enqueue the task; it was not run and was not counted. Retry the request.', err, {
      taskId: item.taskId,
    });
  }
  return { taskId: item.taskId, sessionId, status: 'pending', createdAt: item.createdAt };
}

/** A design extraction: always a fresh single-task session; SPEC §3 keeps nothing when enqueueing fails. */
export async function submitDesignTask(
  deps: TaskDeps,
  auth: AuthContext,
  input: { endUserId: string; design: DesignRequest },
): Promise<Submitted> {
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
  const undo = () =>
    compensate(
      deps.logger,
      [
        ['task delete', () => deps.tasks.delete(item.taskId)],
        ['session delete', () => deps.sessions.delete(sessionId)],
      ],
      refund,
    );
  try {
    await deps.tasks.create(item);
    await deps.sessions.create(firstTurn(item));
  } catch (err) {
    await undo();
    throw err;
  }
  deps.logger.appendPersistentKeys({ taskId: item.taskId });
  try {
    await deps.queue.send({ taskId: item.taskId, kind: 'design' });
  } catch (err) {
    deps.logger.error('enqueue failed', { error: describeError(err) });
    await undo();
    throw new EnqueueError(
      'Failed to enqueue the design extraction; nothing was stored or counted. Retry the request.',
      err,
    );
  }
  return { taskId: item.taskId, sessionId, status: 'pending', createdAt: item.createdAt };
}

async function ownedTask(deps: Pick<TaskDeps, 'tasks'>, auth: AuthContext, taskId: string): Promise<TaskItem> {
  const item = await deps.tasks.get(taskId);
  if (!item) throw new NotFoundError('Task not found');
  if (item.businessId !== auth.businessId) throw new ForbiddenError('This task belongs to another business');
  return item;
}

/** A task record with its offloaded fields back in place, cut to `budgetBytes` (lib/tasks/view-limits.ts). */
async function readableView(
  deps: Pick<TaskDeps, 'results' | 'config'>,
  item: TaskItem,
  budgetBytes: number,
): Promise<TaskView> {
  const key = item.offloadedKey;
  const download = key ? () => deps.results.downloadUrl(key, deps.config.BTS_ASSET_URL_TTL_S) : undefined;
  return fitTaskView(toTaskView(await inlineOffloaded(deps.results, item)), budgetBytes, download);
}

/** GET /v1/tasks/{taskId}: the record of SPEC §2.1 with offloaded fields back in place. */
export async function getTask(
  deps: Pick<TaskDeps, 'tasks' | 'results' | 'config'>,
  auth: AuthContext,
  input: { taskId: string },
): Promise<TaskView> {
  return readableView(deps, await ownedTask(deps, auth, input.taskId), RESPONSE_BUDGET_BYTES);
}

/** How a cancel request was taken: a pending task is cancelled at once, a running one at its next step. */
export interface CancelOutcome {
  outcome: 'cancelled' | 'cancel-requested';
  task: CancelledTask;
}

/** POST /v1/tasks/{taskId}/cancel (our addition, DESIGN §6); a finished task is a conflict. */
export async function cancelTask(
  deps: Pick<TaskDeps, 'tasks' | 'now'>,
  auth: AuthContext,
  input: { taskId: string },
): Promise<CancelOutcome> {
  await ownedTask(deps, auth, input.taskId);
  const outcome = await deps.tasks.requestCancel(input.taskId, deps.now());
  const current = await ownedTask(deps, auth, input.taskId);
  if (outcome === 'terminal') throw new ConflictError(`Task already finished with status ${current.status}`);
  return {
    outcome: outcome === 'cancelled' ? 'cancelled' : 'cancel-requested',
    task: { ...toTaskView(current), cancelRequested: true },
  };
}

/** GET /v1/tasks: one row per session, most recently active first. */
export async function listSessions(
  deps: Pick<TaskDeps, 'tasks' | 'sessions'>,
  auth: AuthContext,
  input: { limit: number },
): Promise<SessionSummary[]> {
  const sessions = await deps.sessions.listByBusiness(auth.businessId, input.limit);
  const tasks = await deps.tasks.batchGet(sessions.flatMap((s) => [s.firstTaskId, s.latestTaskId]));
  const byId = new Map(tasks.map((t) => [t.taskId, t]));
  const out: SessionSummary[] = [];
  const share = Math.floor(RESPONSE_BUDGET_BYTES / Math.max(1, sessions.length));
  for (const s of sessions) {
    const first = byId.get(s.firstTaskId);
    const latest = byId.get(s.latestTaskId);
    // A session whose task write was just compensated away has nothing to show.
    if (!first || !latest) continue;
    out.push({
      sessionId: s.sessionId,
      firstTask: await fitTaskView(toTaskView(first), share),
      turnCount: s.turnCount,
      latestStatus: latest.status,
      latestCreatedAt: latest.createdAt,
      latestUpdatedAt: latest.updatedAt,
    });
  }
  return out;
}

/** GET /v1/sessions/{sessionId}: the session's tasks, oldest first. */
export async function getSession(
  deps: Pick<TaskDeps, 'tasks' | 'sessions' | 'results' | 'config'>,
  auth: AuthContext,
  input: { sessionId: string },
): Promise<Session> {
  const session = await deps.sessions.get(input.sessionId);
  if (!session) throw new NotFoundError('Session not found');
  if (session.businessId !== auth.businessId) throw new ForbiddenError('This session belongs to another business');
  const items = (await deps.tasks.listBySession(input.sessionId)).sort((a, b) =>
    a.sessionSort.localeCompare(b.sessionSort),
  );
  if (items.length === 0) throw new NotFoundError('Session has no tasks');
  // The response budget is shared: each turn gets an equal part of it.
  const share = Math.floor(RESPONSE_BUDGET_BYTES / items.length);
  return { sessionId: input.sessionId, tasks: await Promise.all(items.map((t) => readableView(deps, t, share))) };
}
