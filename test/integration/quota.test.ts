import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotaMonth } from '../../lib/quota/model.js';
import { submitAgentTask, newTaskItem } from '../../lib/tasks/use-cases.js';
import { sweepOnce } from '../../lib/worker/sweeper.js';
import type { WorkerDeps } from '../../lib/worker-deps.js';
import { uniqueId, useTestAws, type TestAws } from '../support/aws.js';

let env: TestAws;
let deps: WorkerDeps;
beforeAll(async () => {
  env = await useTestAws();
  deps = env.depsWith({ BTS_MODEL_PROVIDER: 'openai-compatible' });
});
afterAll(async () => env?.stop());

/** This month's count for a business, read without changing it. */
async function used(businessId: string, month = quotaMonth(new Date())): Promise<number> {
  const r = await deps.usage.consume(businessId, month, 1_000_000);
  await deps.usage.refund(businessId, month);
  return r.used - 1;
}

const agent = { maxSteps: 5, includeHtmlDump: false };
/** A port with some methods replaced; the rest still reach the real adapter (its methods live on the prototype). */
const patched = <T extends object>(port: T, overrides: Partial<T>): T =>
  Object.assign(Object.create(port) as T, overrides);

const fail = (what: string) => async (): Promise<never> => {
  throw new Error(`${what} is down`);
};

describe('quota', () => {
  it('a limit of 0 admits nothing, not even the first task of a month', async () => {
    const biz = uniqueId('zero');
    expect(await deps.usage.consume(biz, '2026-01', 0)).toEqual({ ok: false, used: 0 });
    await deps.businesses.setQuota(biz, 0, new Date());
    await expect(
      submitAgentTask(deps, { businessId: biz }, { endUserId: 'u', task: 't', agent }),
    ).rejects.toMatchObject({ limit: 0, used: 0 });
  });

  it.each([
    [
      'the session write fails and then the task delete throws',
      (d: WorkerDeps): Partial<WorkerDeps> => ({
        sessions: patched(d.sessions, { create: fail('sessions') }),
        tasks: patched(d.tasks, { delete: fail('task delete') }),
      }),
    ],
    [
      'the enqueue fails and then marking the task failed throws',
      (d: WorkerDeps): Partial<WorkerDeps> => ({
        queue: { send: fail('sqs'), retryAfter: fail('sqs') },
        tasks: patched(d.tasks, { failUnlessTerminal: fail('task update') }),
      }),
    ],
  ])('refunds the unit when %s', async (_label, breakIt) => {
    // Prepare: the first failure, then a compensation step that fails too.
    const biz = uniqueId('comp');
    const broken: WorkerDeps = { ...deps, ...breakIt(deps) };
    // Act
    await expect(submitAgentTask(broken, { businessId: biz }, { endUserId: 'u', task: 't', agent })).rejects.toThrow(
      /down|enqueue/,
    );
    // Assess
    expect(await used(biz)).toBe(0);
  });

  it('refunds tasks the sweeper abandons (never picked up), once', async () => {
    // Prepare: a task counted two hours ago that no worker ever claimed.
    const biz = uniqueId('abandon');
    const created = new Date(Date.now() - 2 * 60 * 60_000);
    await deps.usage.consume(biz, quotaMonth(created), 15);
    const item = newTaskItem({
      businessId: biz,
      sessionId: uniqueId('s'),
      endUserId: 'u',
      task: 't',
      kind: 'agent',
      now: created,
    });
    await deps.tasks.create(item);
    // Act
    const first = await sweepOnce(deps, { limit: 1000 });
    await sweepOnce(deps, { limit: 1000 });
    // Assess
    expect(first.abandoned).toContain(item.taskId);
    expect(await deps.tasks.get(item.taskId)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/not picked up/),
    });
    expect(await used(biz, quotaMonth(created))).toBe(0);
  });
});
