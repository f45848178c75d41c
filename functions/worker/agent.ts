import { createTaskHandler } from '../../lib/worker/run-task.js';
import { runAgentJob } from '../../lib/worker/agent-job.js';

/** SQS consumer of the agent queue (batch size 1, partial batch failures reported). */
export const handler = createTaskHandler({ kind: 'agent', job: runAgentJob });
