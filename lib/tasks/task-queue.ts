import type { TaskMessage } from './model.js';

/** Hands a task to its worker. Agent and design tasks travel on separate queues. */
export interface TaskQueue {
  /** `delaySeconds` (at most 900) holds the new message back, e.g. for a business at its running cap. */
  send(message: TaskMessage, opts?: { delaySeconds?: number }): Promise<void>;
  /**
   * Makes a received message visible again after `seconds`, instead of after the queue's
   * visibility timeout (6x the worker timeout): the short backoff of a transient failure.
   */
  retryAfter(kind: TaskMessage['kind'], receiptHandle: string, seconds: number): Promise<void>;
}
