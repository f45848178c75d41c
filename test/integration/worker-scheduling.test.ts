import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransientWorkerError } from '../../lib/errors.js';
import type { TaskItem, TaskMessage } from '../../lib/tasks/model.js';
import type { TaskQueue } from '../../lib/tasks/task-queue.js';
import { newTaskItem } from '../../lib/tasks/use-cases.js';
import { createTaskHandler } from '../../lib/worker/run-task.js';
import { sweepOnce } from '../../lib/worker/sweeper.js';
import type { WorkerDeps } from '../../lib/worker-deps.js';
import { uniqueId, useTestAws, type TestAws } from '../support/aws.js';

let env: TestAws;
beforeAll(async () => {
  env = await useTestAws();
});
afterAll(async () => env?.stop());

async function pendingTask(d: WorkerDeps, kind: TaskItem['kind'], businessId = uniqueId('biz')): Promise<TaskItem> {
  const item = newTaskItem({ businessId, sessionId: uniqueId('s'), endUserId: 'u', task: 't', kind, now: new Date() });
  await d.tasks.create(item);
  return item;
}

const record = (body: TaskMessage, receiptHandle = 'local'): SQSRecord => ({
  messageId: uniqueId('m'),
  receiptHandle,
  body: JSON.stringify(body),
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: '0',
    SenderId: 'test',
    ApproximateFirstReceiveTimestamp: '0',
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:agent',
  awsRegion: 'us-east-1',
});

/** The next delivery of `taskId`'s message on the real (emulated) queue, or undefined after `ms`. */
async function receive(d: WorkerDeps, taskId: string, ms: number): Promise<SQSRecord | undefined> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const out = await env.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: d.config.AGENT_QUEUE_URL, WaitTimeSeconds: 1, MaxNumberOfMessages: 10 }),
    );
    const m = (out.Messages ?? []).find((x) => (JSON.parse(x.Body ?? '{}') as TaskMessage).taskId === taskId);
    if (m) return record(JSON.parse(m.Body ?? '{}') as TaskMessage, m.ReceiptHandle);
  }
  return undefined;
}

describe('transient failures', () => {
  it('come back after a short backoff, and the sweeper leaves them to that retry', async () => {
    // Prepare: a job whose first attempt hits infrastructure trouble, on the real queue.
    const d = env.depsWith({ BTS_RETRY_DELAY_S: '1' });
    const task = await pendingTask(d, 'agent');
    await d.queue.send({ taskId: task.taskId, kind: 'agent' });
    let calls = 0;
    const handler = createTaskHandler<WorkerDeps>({
      kind: 'agent',
      deps: () => d,
      job: async () => {
        calls++;
        if (calls === 1) throw new TransientWorkerError('The browser could not be started');
        return { result: 'ok' };
      },
    });
    const first = await receive(d, task.taskId, 5_000);
    // Act 1: the transient failure
    const res1 = await handler({ Records: [first as SQSRecord] });
    // Assess 1: reported for redelivery, with a retry scheduled on the item
    expect(res1.batchItemFailures).toHaveLength(1);
    expect(await d.tasks.get(task.taskId)).toMatchObject({
      status: 'running',
      retryAt: expect.any(String),
      retryError: 'The browser could not be started',
    });
    // Act 2: the sweeper runs ten minutes later, long past the 3-minute budget and its grace
    const swept = await sweepOnce(d, { now: new Date(Date.now() + 10 * 60_000), limit: 1000 });
    // Assess 2: the task is left to its retry, not failed with a time-limit error
    expect(swept.failed).not.toContain(task.taskId);
    expect((await d.tasks.get(task.taskId))?.status).toBe('running');
    // Act 3: the message is back within seconds (the queue's own visibility timeout is 24 minutes)
    const again = await receive(d, task.taskId, 8_000);
    expect(again).toBeDefined();
    const res2 = await handler({ Records: [again as SQSRecord] });
    // Assess 3
    expect(res2.batchItemFailures).toEqual([]);
    expect(await d.tasks.get(task.taskId)).toMatchObject({ status: 'completed', result: 'ok', attempts: 2 });
    expect((await d.tasks.get(task.taskId))?.retryAt).toBeUndefined();
  });

  it('whose retry never starts are failed with the transient error, not a time limit', async () => {
    const d = env.depsWith({ BTS_RETRY_DELAY_S: '60' });
    const task = await pendingTask(d, 'agent');
    const handler = createTaskHandler<WorkerDeps>({
      kind: 'agent',
      deps: () => d,
      job: async () => {
        throw new TransientWorkerError('The browser could not be started');
      },
    });
    await handler({ Records: [record({ taskId: task.taskId, kind: 'agent' })] });
    const swept = await sweepOnce(d, { now: new Date(Date.now() + 60 * 60_000), limit: 1000 });
    expect(swept.failed).toContain(task.taskId);
    expect((await d.tasks.get(task.taskId))?.error).toBe(
      'The task failed on a transient error and its retry never started: The browser could not be started',
    );
  });
});

describe('fair scheduling', () => {
  it('defers a business over its running cap and runs another business meanwhile', async () => {
    // Prepare: a cap of 1; business A has two tasks, B one; A's first run waits on a gate.
    const sent: { message: TaskMessage; delaySeconds?: number }[] = [];
    const base = env.depsWith({ BTS_MAX_RUNNING_PER_BUSINESS: '1' });
    const queue: TaskQueue = Object.assign(Object.create(base.queue) as TaskQueue, {
      send: async (message: TaskMessage, opts: { delaySeconds?: number } = {}) => {
        sent.push({ message, ...opts });
      },
    });
    const d: WorkerDeps = { ...base, queue };
    const bizA = uniqueId('burst');
    const [a1, a2, b1] = [
      await pendingTask(d, 'design', bizA),
      await pendingTask(d, 'design', bizA),
      await pendingTask(d, 'design'),
    ];
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    const handler = createTaskHandler<WorkerDeps>({
      kind: 'design',
      deps: () => d,
      job: async ({ task }) => {
        if (task.taskId === a1.taskId) await gate;
        return { result: `done ${task.taskId}` };
      },
    });
    const msg = (t: TaskItem): SQSRecord => record({ taskId: t.taskId, kind: 'design' });
    // Act
    const firstRun = handler({ Records: [msg(a1)] });
    while ((await d.tasks.get(a1.taskId))?.status !== 'running') await new Promise((r) => setTimeout(r, 20));
    const deferred = await handler({ Records: [msg(a2)] });
    const other = await handler({ Records: [msg(b1)] });
    // Assess: A's second task waits (consumed, sent again with a delay), B's ran
    expect(deferred.batchItemFailures).toEqual([]);
    expect((await d.tasks.get(a2.taskId))?.status).toBe('pending');
    expect(sent).toEqual([{ message: { taskId: a2.taskId, kind: 'design' }, delaySeconds: 15 }]);
    expect(other.batchItemFailures).toEqual([]);
    expect((await d.tasks.get(b1.taskId))?.status).toBe('completed');
    // Once A's first task ends, its slot is free for the second.
    open();
    await firstRun;
    await handler({ Records: [msg(a2)] });
    expect((await d.tasks.get(a2.taskId))?.status).toBe('completed');
  });
});
