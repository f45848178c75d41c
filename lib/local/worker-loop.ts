import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { sqsClient } from '../aws/clients.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { lambdaContext } from './lambda-adapter.js';

type SqsLambda = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface WorkerBinding {
  /** Handler module under functions/worker/. */
  handler: string;
  queueUrl: () => string;
  /** Lambda's SQS event source uses batch size 1 for these workers. */
  batchSize: number;
  timeoutMs: number;
}

export const WORKERS: WorkerBinding[] = [
  { handler: 'design', queueUrl: () => config().DESIGN_QUEUE_URL, batchSize: 1, timeoutMs: 120_000 },
  { handler: 'agent', queueUrl: () => config().AGENT_QUEUE_URL, batchSize: 1, timeoutMs: 240_000 },
];

function toRecord(m: Message, queueUrl: string): SQSRecord {
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
    awsRegion: config().AWS_REGION,
  };
}

/**
 * The local stand-in for Lambda's SQS event source: long-polls each queue and calls the
 * same worker handlers with SQS events. Messages the handler reports in
 * `batchItemFailures` (or all, if it throws) stay on the queue and reappear after the
 * visibility timeout, exactly like the managed event source.
 */
export async function startWorkerLoop(bindings: WorkerBinding[] = WORKERS): Promise<() => Promise<void>> {
  const abort = new AbortController();
  // Load every handler first, then start the loops: a loop only returns once aborted.
  const handlers = await Promise.all(
    bindings.map(async (b) => {
      // Resolved at run time so the API-only runtime (tests with workers off) never loads Chromium.
      const mod = (await import(/* @vite-ignore */ `../../functions/worker/${b.handler}.js`)) as { handler: SqsLambda };
      return mod.handler;
    }),
  );
  const loops = bindings.map((b, i) => pollQueue(b, handlers[i] as SqsLambda, abort.signal));
  return async () => {
    abort.abort();
    await Promise.allSettled(loops);
  };
}

async function pollQueue(b: WorkerBinding, handler: SqsLambda, signal: AbortSignal): Promise<void> {
  const log = logger().createChild({ persistentKeys: { worker: b.handler } });
  while (!signal.aborted) {
    const queueUrl = b.queueUrl();
    let messages: Message[];
    try {
      const out = await sqsClient().send(
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
      log.warn('receive failed', { error: err instanceof Error ? err.message : String(err) });
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    if (messages.length === 0) continue;
    const records = messages.map((m) => toRecord(m, queueUrl));
    let failed = new Set<string>();
    try {
      const res = await handler({ Records: records }, lambdaContext(`worker-${b.handler}`, b.timeoutMs));
      failed = new Set((res?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (err) {
      log.error('worker handler threw', { error: err instanceof Error ? err.message : String(err) });
      failed = new Set(records.map((r) => r.messageId));
    }
    const done = records.filter((r) => !failed.has(r.messageId));
    if (done.length) {
      await sqsClient()
        .send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
          }),
        )
        .catch((err: unknown) => log.warn('delete failed', { error: err instanceof Error ? err.message : String(err) }));
    }
  }
}
