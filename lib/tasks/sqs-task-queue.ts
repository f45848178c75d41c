import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { TaskMessage } from './model.js';
import type { TaskQueue } from './task-queue.js';

/** The TaskQueue on SQS: one queue per task kind, each with its own worker function. */
export class SqsTaskQueue implements TaskQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly urls: { agent: string; design: string },
  ) {}

  async send(message: TaskMessage): Promise<void> {
    const QueueUrl = message.kind === 'agent' ? this.urls.agent : this.urls.design;
    if (!QueueUrl) throw new Error(`No queue configured for ${message.kind} tasks`);
    await this.sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify(message) }));
  }
}
