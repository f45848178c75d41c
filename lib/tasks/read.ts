import type { AuthContext } from '../auth/authenticate.js';
import type { Deps } from '../deps.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { toTaskView, type TaskItem, type TaskView } from './model.js';
import { inlineOffloaded } from './result-store.js';

async function ownedTask(deps: Deps, auth: AuthContext, taskId: string): Promise<TaskItem> {
  const item = await deps.tasks.get(taskId);
  if (!item) throw new NotFoundError('Task not found');
  if (item.businessId !== auth.businessId) throw new ForbiddenError('This task belongs to another business');
  return item;
}

export async function getTask(deps: Deps, auth: AuthContext, taskId: string): Promise<TaskView> {
  return toTaskView(await inlineOffloaded(deps.results, await ownedTask(deps, auth, taskId)));
}

export interface SessionSummary {
  sessionId: string;
  firstTask: TaskView;
  turnCount: number;
  latestStatus: TaskItem['status'];
  latestCreatedAt: string;
  latestUpdatedAt: string;
}

/** GET /v1/tasks: one row per session, most recently active first. */
export async function listSessions(deps: Deps, auth: AuthContext, limit: number): Promise<SessionSummary[]> {
  const sessions = await deps.sessions.listByBusiness(auth.businessId, limit);
  const tasks = await deps.tasks.batchGet(sessions.flatMap((s) => [s.firstTaskId, s.latestTaskId]));
  const byId = new Map(tasks.map((t) => [t.taskId, t]));
  const out: SessionSummary[] = [];
  for (const s of sessions) {
    const first = byId.get(s.firstTaskId);
    const latest = byId.get(s.latestTaskId);
    // A session whose task write was just compensated away has nothing to show.
    if (!first || !latest) continue;
    out.push({
      sessionId: s.sessionId,
      firstTask: toTaskView(first),
      turnCount: s.turnCount,
      latestStatus: latest.status,
      latestCreatedAt: latest.createdAt,
      latestUpdatedAt: latest.updatedAt,
    });
  }
  return out;
}

export async function getSession(deps: Deps, auth: AuthContext, sessionId: string): Promise<{ sessionId: string; tasks: TaskView[] }> {
  const session = await deps.sessions.get(sessionId);
  if (!session) throw new NotFoundError('Session not found');
  if (session.businessId !== auth.businessId) throw new ForbiddenError('This session belongs to another business');
  const items = (await deps.tasks.listBySession(sessionId)).sort((a, b) => a.sessionSort.localeCompare(b.sessionSort));
  if (items.length === 0) throw new NotFoundError('Session has no tasks');
  const full = await Promise.all(items.map((t) => inlineOffloaded(deps.results, t)));
  return { sessionId, tasks: full.map(toTaskView) };
}

/** POST /v1/tasks/{taskId}/cancel (our addition, DESIGN §6). */
export async function cancelTask(deps: Deps, auth: AuthContext, taskId: string): Promise<{ statusCode: number; body: unknown }> {
  await ownedTask(deps, auth, taskId);
  const outcome = await deps.tasks.requestCancel(taskId, deps.now());
  const current = await ownedTask(deps, auth, taskId);
  if (outcome === 'terminal') {
    throw new ConflictError(`Task already finished with status ${current.status}`);
  }
  // A running task stops at its next step; the caller keeps polling for `cancelled`.
  return { statusCode: outcome === 'cancelled' ? 200 : 202, body: { ...toTaskView(current), cancelRequested: true } };
}
