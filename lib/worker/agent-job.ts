import { agentJob } from '../agent/job.js';
import type { Job } from './run-task.js';

/**
 * The agent worker's job (lib/agent/job.ts): the model from configuration (a task fails at
 * once, saying how to configure one, when none is set), the end-user's platform cookies,
 * the session's browser state, and the step loop over the shared browser tools.
 */
export const runAgentJob: Job = agentJob();
