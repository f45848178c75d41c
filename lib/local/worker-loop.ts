import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { WorkerDeps as Deps } from '../worker-deps.js';
import { describeError } from '../errors.js';
import { createTaskHandler, type TaskRunnerOptions } from '../worker/run-task.js';

type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;
type WorkerDefinition = Omit<TaskRunnerOptions<Deps>, 'deps'>;

export interface WorkerBinding {
  name: string;
  queueUrl: (d: Deps) => string;
  /** The worker's definition from functions/worker/, loaded only when workers run (it pulls in Chromium). */
  load: () => Promise<WorkerDefinition>;
  /** Lambda's SQS event source uses batch size 1 for these workers. */
  batchSize: number;
  timeoutMs: number;
}

export const WORKERS: WorkerBinding[] = [
  {
    name: 'design',
    queueUrl: (d) => d.config.DESIGN_QUEUE_URL,
    load: async () => (await import('../../functions/worker/design.js')).designWorker,
    batchSize: 1,
    timeoutMs: 120_000,
  },
  {
    name: 'agent',
    queueUrl: (d) => d.config.AGENT_QUEUE_URL,
    load: async () => (await import('../../functions/worker/agent.js')).agentWorker,
    batchSize: 1,
    timeoutMs: 240_000,
  },
];

function toRecord(m: Message, queueUrl: string, region: string): SQSRecord {
  return {
    messageId: m.MessageId ?? '',
    receiptHandle: m.ReceiptHandle ?? '',
    body: m.Body ?? '',
    attributes: {
      ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1',
      SentTimestamp: m.Attributes?.SentTimestamp ?? String(Date.now()),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueUrl,
    awsRegion: region,
  };
}

/**
 * The local stand-in for Lambda's SQS event source: long-polls each queue and calls the
 * same worker definitions with SQS events. Messages the handler reports in
 * `batchItemFailures` (or all, if it throws) stay on the queue and reappear after the
 * visibility timeout, exactly like the managed event source.
 */
export async function startWorkerLoop(opts: {
  deps: () => Deps;
  sqs: SQSClient;
  bindings?: WorkerBinding[];
}): Promise<() => Promise<void>> {
  const abort = new AbortController();
  const bindings = opts.bindings ?? WORKERS;
  // Load every handler first, then start the loops: a loop only returns once aborted.
  const handlers = await Promise.all(
    bindings.map(async (b) => createTaskHandler({ ...(await b.load()), deps: opts.deps })),
  );
  const loops = bindings.map((b, i) => pollQueue(b, handlers[i] as SqsHandler, opts, abort.signal));
  return async () => {
    abort.abort();
    await Promise.allSettled(loops);
  };
}

async function pollQueue(
  b: WorkerBinding,
  handler: SqsHandler,
  opts: { deps: () => Deps; sqs: SQSClient },
  signal: AbortSignal,
): Promise<void> {
  const d = opts.deps();
  const log = d.logger.createChild({ persistentKeys: { worker: b.name } });
  while (!signal.aborted) {
    const queueUrl = b.queueUrl(d);
    let messages: Message[];
    try {
      const out = await opts.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: b.batchSize,
          WaitTimeSeconds: 1,
          MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
        }),
        { abortSignal: signal },
      );
      messages = out.Messages ?? [];
    } catch (err) {
      if (signal.aborted) return;
      log.warn('receive failed', { error: describeError(err) });
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    if (messages.length === 0) continue;
    const records = messages.map((m) => toRecord(m, queueUrl, d.config.AWS_REGION));
    let failed = new Set<string>();
    try {
      const res = await handler({ Records: records });
      failed = new Set((res?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (err) {
      log.error('worker handler threw', { error: describeError(err) });
      failed = new Set(records.map((r) => r.messageId));
    }
    const done = records.filter((r) => !failed.has(r.messageId));
    if (done.length) {
      await opts.sqs
        .send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
          }),
        )
        .catch((err: unknown) => log.warn('delete failed', { error: describeError(err) }));
    }
  }
}
