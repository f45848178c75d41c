import type { TaskMessage } from './model.js';

/** Hands a task to its worker. Agent and design tasks travel on separate queues. */
export interface TaskQueue {
  send(message: TaskMessage): Promise<void>;
}
