import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_RETENTION_DAYS } from '../../lib/aws/resources.js';
import type { TaskItem } from '../../lib/tasks/model.js';
import { resultKey } from '../../lib/tasks/result-store.js';
import { getSession, getTask, newTaskItem } from '../../lib/tasks/use-cases.js';
import { createTaskHandler } from '../../lib/worker/run-task.js';
import type { WorkerDeps } from '../../lib/worker-deps.js';
import type { JobOutput } from '../../lib/worker/job.js';
import { uniqueId, useTestAws, type TestAws } from '../support/aws.js';

let env: TestAws;
const deps = (): WorkerDeps => env.deps;
beforeAll(async () => {
  env = await useTestAws();
});
afterAll(async () => env?.stop());

/** Lambda's limit on a synchronous response. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;
const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

async function pending(overrides: Partial<TaskItem> = {}): Promise<TaskItem> {
  const item = {
    ...newTaskItem({
      businessId: uniqueId('biz'),
      sessionId: uniqueId('s'),
      endUserId: 'u',
      task: 't',
      kind: 'design',
      now: new Date(),
    }),
    ...overrides,
  };
  await deps().tasks.create(item);
  return item;
}

async function claimed(overrides: Partial<TaskItem> = {}): Promise<TaskItem> {
  const item = await pending(overrides);
  return (await deps().tasks.claim(item.taskId, new Date(), 60_000)) as TaskItem;
}

/** Runs one task through the real runner with a job that returns `output`. */
async function runWith(task: TaskItem, output: JobOutput): Promise<void> {
  const handler = createTaskHandler<WorkerDeps>({ kind: task.kind, deps, job: async () => output });
  const record = {
    messageId: 'm',
    receiptHandle: 'r',
    body: JSON.stringify({ taskId: task.taskId, kind: task.kind }),
  } as SQSRecord;
  expect((await handler({ Records: [record] })).batchItemFailures).toEqual([]);
}

describe('reads fit a Lambda response', () => {
  it('cuts a 7 MB offloaded html_dump, marks it, and links the full object', async () => {
    // Prepare: a finished task whose offloaded object holds a 7 MB page and a long step message.
    const task = await claimed();
    const html = `<html>${'<p>é</p>'.repeat(800_000)}</html>`;
    const key = resultKey(task);
    await deps().results.put(key, {
      html_dump: html,
      result: 'answer',
      stepSummaries: [{ n: 1, type: 'extract', msg: 'm'.repeat(50_000), success: true }],
    });
    await deps().tasks.finish(task.taskId, 'completed', { offloadedKey: key }, new Date());
    // Act
    const view = (await getTask(deps(), { businessId: task.businessId }, { taskId: task.taskId })) as unknown as Record<
      string,
      unknown
    > & {
      html_dump: string;
      stepSummaries: { msg: string }[];
      truncated: { fields: string[]; downloadUrl: string };
    };
    // Assess
    expect(size(view)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    expect(view.result).toBe('answer');
    expect(html.startsWith(view.html_dump)).toBe(true);
    expect(view.stepSummaries[0]?.msg.length).toBeLessThanOrEqual(2_001);
    expect(view.truncated.fields).toContain('html_dump');
    const full = (await (await fetch(view.truncated.downloadUrl)).json()) as { html_dump: string };
    expect(full.html_dump).toBe(html);
  });

  it('shares the budget between the turns of a session', async () => {
    const sessionId = uniqueId('s');
    const first = await claimed({ sessionId });
    const businessId = first.businessId;
    await deps().sessions.create({
      sessionId,
      businessId,
      endUserId: 'u',
      firstTaskId: first.taskId,
      latestTaskId: first.taskId,
      latestCreatedAt: first.createdAt,
      turnCount: 3,
      createdAt: first.createdAt,
      kind: 'agent',
    });
    for (const t of [first, await claimed({ sessionId, businessId }), await claimed({ sessionId, businessId })]) {
      await deps().results.put(resultKey(t), { html_dump: 'x'.repeat(3 * 1024 * 1024) });
      await deps().tasks.finish(t.taskId, 'completed', { offloadedKey: resultKey(t) }, new Date());
    }
    const session = await getSession(deps(), { businessId }, { sessionId });
    expect(session.tasks).toHaveLength(3);
    expect(size(session)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  });
});

describe('results too big or too deep for DynamoDB are offloaded at finish', () => {
  it('a result nested 40 levels deep completes and reads back whole', async () => {
    const deep = (n: number): Record<string, unknown> => (n === 0 ? { leaf: true } : { child: deep(n - 1) });
    const task = await pending();
    await runWith(task, { result: deep(40) });
    const stored = (await deps().tasks.get(task.taskId)) as TaskItem;
    expect(stored).toMatchObject({
      status: 'completed',
      offloadedKey: `results/${task.businessId}/${task.taskId}/attempt-1.json`,
    });
    expect((await getTask(deps(), { businessId: task.businessId }, { taskId: task.taskId })).result).toEqual(deep(40));
  });

  it('counts what the item already holds: a 60 KB schema and a 20 KB prompt plus a 240 KB result', async () => {
    const task = await pending({
      task: 'p'.repeat(20_000),
      agent: { maxSteps: 5, includeHtmlDump: false, schema: { description: 'd'.repeat(60_000) } },
    });
    await runWith(task, { result: 'r'.repeat(240_000) });
    const stored = (await deps().tasks.get(task.taskId)) as TaskItem;
    expect(stored.status).toBe('completed');
    expect(stored.offloadedKey).toBeDefined();
    expect(stored.result).toBeUndefined();
  });

  it('stamps every new task with its retention (Tasks TTL), which the results/ lifecycle follows', async () => {
    const created = new Date('2026-03-01T00:00:00Z');
    const item = newTaskItem({
      businessId: 'b',
      sessionId: 's',
      endUserId: 'u',
      task: 't',
      kind: 'agent',
      now: created,
    });
    expect(item.expiresAt).toBe(created.getTime() / 1000 + TASK_RETENTION_DAYS * 86_400);
  });

  it('keys the offloaded object by attempt, so a late earlier attempt cannot overwrite it', () => {
    const t = { businessId: 'b', taskId: 't' };
    expect(resultKey({ ...t, attempts: 1 })).not.toBe(resultKey({ ...t, attempts: 2 }));
  });
});
