import { ChangeMessageVisibilityCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { TaskMessage } from './model.js';
import type { TaskQueue } from './task-queue.js';

/** The TaskQueue on SQS: one queue per task kind, each with its own worker function. */
export class SqsTaskQueue implements TaskQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly urls: { agent: string; design: string },
  ) {}

  private url(kind: TaskMessage['kind']): string {
    const QueueUrl = kind === 'agent' ? this.urls.agent : this.urls.design;
    if (!QueueUrl) throw new Error(`No queue configured for ${kind} tasks`);
    return QueueUrl;
  }

  async send(message: TaskMessage, opts: { delaySeconds?: number } = {}): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.url(message.kind),
        MessageBody: JSON.stringify(message),
        ...(opts.delaySeconds ? { DelaySeconds: Math.min(900, Math.max(0, Math.round(opts.delaySeconds))) } : {}),
      }),
    );
  }

  async retryAfter(kind: TaskMessage['kind'], receiptHandle: string, seconds: number): Promise<void> {
    await this.sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: this.url(kind),
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: Math.round(seconds),
      }),
    );
  }
}
