import { TaskFailedError } from '../errors.js';
import type { Job } from './run-task.js';

/**
 * Agent tasks run through the same runner as design tasks, but the agent loop (model
 * providers, tools, step summaries) is not part of this build yet. Rather than pretend,
 * the task fails with a message that says so; the agent issue replaces this job.
 */
export const runAgentJob: Job = async () => {
  throw new TaskFailedError(
    'Agent execution is not available in this build of the service: no agent model is configured yet. Design extraction tasks are available.',
  );
};
