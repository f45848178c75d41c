import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { TaskItem } from '../../lib/tasks/model.js';
import { runDesignJob } from '../../lib/design/job.js';
import { createTaskHandler } from '../../lib/worker/run-task.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { newTaskItem } from '../../lib/tasks/use-cases.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

let rt: TestRuntime;
let site: FixtureServer;
const pending = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  rt = await startTestRuntime({ workers: true, env: { BTS_DESIGN_BUDGET_MS: '1500' } });
  site = await startFixtureServer({
    routes: [
      (req, res) => {
        if (!req.url?.startsWith('/slow')) return false;
        // Answers long after the budget; the timer is dropped when the test ends.
        const t = setTimeout(() => {
          pending.delete(t);
          res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>late</h1>');
        }, 4_000);
        pending.add(t);
        return true;
      },
    ],
  });
});

afterAll(async () => {
  for (const t of pending) clearTimeout(t);
  await rt?.stop();
  await site?.close();
});

describe('time budget', () => {
  it('fails an over-budget design run with an error naming the limit, on time', async () => {
    const submit = await rt.call('POST', '/v1/design/extract', {
      body: { url: `${site.url}/slow`, endUserId: 'slow' },
    });
    expect(submit.status).toBe(202);
    const started = Date.now();
    const task = await rt.poll(String(submit.body.taskId));
    expect(task).toMatchObject({ status: 'failed', error: 'Design extraction exceeded its 1.5 second limit' });
    // The budget, not the page's 4 s answer, ended the run (browser start-up included).
    expect(Date.now() - started).toBeLessThan(3_900);
    const item = await rt.runtime.deps.tasks.get(String(submit.body.taskId));
    expect(item?.leaseExpiresAt).toBeUndefined();
    expect(item?.durationMs).toBeGreaterThanOrEqual(1_500);
  });
});

describe('cancellation of a running task', () => {
  it('stops at the next check and ends cancelled, not failed', async () => {
    // Prepare: a task on the slow page, a runner with a roomy budget and a quick cancel check.
    const item: TaskItem = {
      ...newTaskItem({
        businessId: rt.runtime.businessId,
        sessionId: randomUUID(),
        endUserId: 'slow',
        task: 'Extract design',
        kind: 'design',
        now: new Date(),
      }),
      designRequest: { url: `${site.url}/slow?cancel`, extractors: ['colors'], enableIpRotation: false },
    };
    const { taskId } = item;
    await rt.runtime.deps.tasks.create(item);
    const handler = createTaskHandler({
      kind: 'design',
      job: runDesignJob,
      deps: () => rt.runtime.deps,
      cancelPollMs: 100,
      budgets: { designBudgetMs: 20_000, agentBudgetMs: 180_000, graceMs: 1_000 },
    });
    // Act
    const started = Date.now();
    const run = handler({
      Records: [
        {
          messageId: 'cancel-1',
          receiptHandle: 'rh',
          body: JSON.stringify({ taskId, kind: 'design' }),
          attributes: {
            ApproximateReceiveCount: '1',
            SentTimestamp: '0',
            SenderId: 't',
            ApproximateFirstReceiveTimestamp: '0',
          },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:design',
          awsRegion: 'us-east-1',
        },
      ],
    });
    while ((await rt.runtime.deps.tasks.get(taskId))?.status !== 'running') await new Promise((r) => setTimeout(r, 20));
    expect(await rt.runtime.deps.tasks.requestCancel(taskId, new Date())).toBe('flagged');
    const res = await run;
    // Assess: ended well before the slow page would have answered.
    expect(res.batchItemFailures).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3_000);
    const after = await rt.runtime.deps.tasks.get(taskId);
    expect(after?.status).toBe('cancelled');
    expect(after?.design).toBeUndefined();
    expect(after?.error).toBeUndefined();
  });
});
