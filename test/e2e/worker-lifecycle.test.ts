import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotaMonth } from '../../lib/quota/model.js';
import type { DesignRequest, TaskItem } from '../../lib/tasks/model.js';
import type { TaskRepository } from '../../lib/tasks/task-repository.js';
import { runDesignJob } from '../../lib/design/job.js';
import { createTaskHandler } from '../../lib/worker/run-task.js';
import { startSweeperTimer, sweepOnce } from '../../lib/worker/sweeper.js';
import { designWorker } from '../../functions/worker/design.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { newTaskItem } from '../../lib/tasks/use-cases.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

let rt: TestRuntime;
let site: FixtureServer;
let pageUrl: string;
/** The design worker's Lambda handler, wired to this runtime's deps as the worker loop wires it. */
const designHandler = (event: SQSEvent) => createTaskHandler({ ...designWorker, deps: () => rt.runtime.deps })(event);

/** A design task written straight to the table, with no queue message (the worker loop never sees it). */
async function createDesignItem(overrides: Partial<TaskItem> = {}, design?: Partial<DesignRequest>): Promise<TaskItem> {
  const item: TaskItem = {
    ...newTaskItem({
      businessId: rt.runtime.businessId,
      sessionId: randomUUID(),
      endUserId: 'worker-test',
      task: 'Extract design',
      kind: 'design',
      now: new Date(),
    }),
    designRequest: { url: pageUrl, extractors: ['colors', 'logo'], enableIpRotation: false, ...design },
    ...overrides,
  };
  await rt.runtime.deps.tasks.create(item);
  return item;
}

function sqsEvent(body: string, messageId: string = randomUUID()): SQSEvent {
  const now = String(Date.now());
  return {
    Records: [
      {
        messageId,
        receiptHandle: `rh-${messageId}`,
        body,
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: now,
          SenderId: 'test',
          ApproximateFirstReceiveTimestamp: now,
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:design',
        awsRegion: 'us-east-1',
      },
    ],
  };
}

const minutesAgo = (m: number): string => new Date(Date.now() - m * 60_000).toISOString();

beforeAll(async () => {
  rt = await startTestRuntime({ workers: true });
  site = await startFixtureServer();
  pageUrl = `${site.url}/worker/site/`;
});

afterAll(async () => {
  await rt?.stop();
  await site?.close();
});

describe('worker lifecycle', () => {
  it('runs a redelivered message once and never overwrites the finished task', async () => {
    // Prepare
    const item = await createDesignItem();
    const event = sqsEvent(JSON.stringify({ taskId: item.taskId, kind: 'design' }));
    // Act: two concurrent deliveries of the same message, then a late third one.
    const [a, b] = await Promise.all([designHandler(event), designHandler(event)]);
    const afterFirst = await rt.runtime.deps.tasks.get(item.taskId);
    const c = await designHandler(event);
    const afterLate = await rt.runtime.deps.tasks.get(item.taskId);
    // Assess
    expect([a, b, c]).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(afterFirst?.status).toBe('completed');
    expect(afterFirst?.attempts).toBe(1);
    expect(afterLate?.attempts).toBe(1);
    expect(afterLate?.updatedAt).toBe(afterFirst?.updatedAt);
    expect(afterLate?.design).toEqual(afterFirst?.design);
  });

  it('does not run a task cancelled while pending', async () => {
    const item = await createDesignItem();
    const cancel = await rt.call('POST', `/v1/tasks/${item.taskId}/cancel`);
    expect(cancel.status).toBeLessThan(300);
    const res = await designHandler(sqsEvent(JSON.stringify({ taskId: item.taskId, kind: 'design' })));
    const after = await rt.runtime.deps.tasks.get(item.taskId);
    expect(res.batchItemFailures).toEqual([]);
    expect(after?.status).toBe('cancelled');
    expect(after?.attempts).toBeUndefined();
    expect(after?.design).toBeUndefined();
  });

  it.each([['not json'], ['{"taskId":""}'], ['{"taskId":"x","kind":"video"}'], ['{"taskId":"x","kind":"agent"}']])(
    'drops the unusable message %s without a retry',
    async (body) => {
      expect(await designHandler(sqsEvent(body))).toEqual({ batchItemFailures: [] });
    },
  );

  it('consumes a message whose task does not exist', async () => {
    expect(await designHandler(sqsEvent(JSON.stringify({ taskId: randomUUID(), kind: 'design' })))).toEqual({
      batchItemFailures: [],
    });
  });

  it('reports a batch item failure when the task table is unavailable, and the retry then runs the task', async () => {
    const item = await createDesignItem();
    const real = rt.runtime.deps.tasks;
    const broken: TaskRepository = Object.assign(Object.create(real) as TaskRepository, {
      claim: async () => {
        throw new Error('ProvisionedThroughputExceededException');
      },
    });
    const flaky = createTaskHandler({
      kind: 'design',
      job: runDesignJob,
      deps: () => ({ ...rt.runtime.deps, tasks: broken }),
    });
    const event = sqsEvent(JSON.stringify({ taskId: item.taskId, kind: 'design' }), 'm-1');
    expect(await flaky(event)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect((await rt.runtime.deps.tasks.get(item.taskId))?.status).toBe('pending');
    expect(await designHandler(event)).toEqual({ batchItemFailures: [] });
    expect((await rt.runtime.deps.tasks.get(item.taskId))?.status).toBe('completed');
  });

  it('sweeps a task stuck in running past its lease into failed with the limit message', async () => {
    const stuck = await createDesignItem({
      status: 'running',
      updatedAt: minutesAgo(10),
      leaseExpiresAt: minutesAgo(8),
      attempts: 1,
    });
    const live = await createDesignItem({
      status: 'running',
      updatedAt: minutesAgo(10),
      leaseExpiresAt: minutesAgo(-5),
      attempts: 1,
    });
    const report = await sweepOnce(rt.runtime.deps);
    expect(report.failed).toContain(stuck.taskId);
    expect(report.failed).not.toContain(live.taskId);
    const task = await rt.poll(stuck.taskId, 1_000);
    expect(task).toMatchObject({ status: 'failed', error: 'Design extraction exceeded its 60 second limit' });
    expect((await rt.runtime.deps.tasks.get(live.taskId))?.status).toBe('running');
  });

  it('sweeps on a timer in the local runtime and stops cleanly', async () => {
    const stuck = await createDesignItem({
      status: 'running',
      updatedAt: minutesAgo(10),
      leaseExpiresAt: minutesAgo(8),
      attempts: 1,
    });
    const stop = startSweeperTimer(() => rt.runtime.deps, 100);
    try {
      const task = await rt.poll(stuck.taskId, 5_000);
      expect(task.status).toBe('failed');
    } finally {
      await stop();
    }
  });

  it('re-enqueues a pending task whose message was lost, and the worker then completes it', async () => {
    const lost = await createDesignItem({ createdAt: minutesAgo(6), updatedAt: minutesAgo(6) });
    const report = await sweepOnce(rt.runtime.deps);
    expect(report.requeued).toContain(lost.taskId);
    const task = await rt.poll(lost.taskId);
    expect(task.status, String(task.error)).toBe('completed');
  });

  it('fails a design task with IP rotation clearly when no proxy pool is configured', async () => {
    const submit = await rt.call('POST', '/v1/design/extract', {
      body: { url: pageUrl, endUserId: 'rotating', enableIpRotation: true },
    });
    expect(submit.status).toBe(202);
    const task = await rt.poll(String(submit.body.taskId));
    expect(task).toMatchObject({
      status: 'failed',
      error: 'IP rotation was requested but no proxy pool is configured (BTS_PROXY_POOL)',
    });
    expect(task.design).toBeUndefined();
  });

  it('a deployment without an agent model refuses agent tasks with 503 and counts nothing; design tasks still run', async () => {
    // Prepare: the runtime's config without a model, as a deployment that never set one.
    const { BTS_MODEL_PROVIDER: _dropped, ...noModel } = rt.runtime.config;
    const month = quotaMonth(new Date());
    const usedNow = async () => {
      const r = await rt.runtime.deps.usage.consume(rt.runtime.businessId, month, 1_000_000);
      await rt.runtime.deps.usage.refund(rt.runtime.businessId, month);
      return r.used - 1;
    };
    const before = await usedNow();
    const restore = rt.runtime.swapPorts({ config: noModel });
    try {
      // Act
      const submit = await rt.call('POST', '/v1/tasks', { body: { endUserId: 'agent-user', task: 'Find the price' } });
      const design = await rt.call('POST', '/v1/design/extract', {
        body: { url: pageUrl, endUserId: 'agent-user', extractors: ['colors'] },
      });
      // Assess
      expect(submit.status).toBe(503);
      expect(submit.body).toMatchObject({
        error: expect.stringMatching(/no agent model configured.*nothing was counted/),
      });
      expect(design.status).toBe(202);
      expect(await usedNow()).toBe(before + 1);
      expect((await rt.poll(String(design.body.taskId))).status).toBe('completed');
    } finally {
      restore();
    }
  });
});
