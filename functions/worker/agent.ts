import { agentJob } from '../../lib/agent/job.js';
import type { WorkerDeps } from '../../lib/worker-deps.js';
import { createTaskHandler, type TaskRunnerOptions } from '../../lib/worker/run-task.js';
import { lambdaWorkerDeps } from './worker-deps.js';

/** The agent worker: the generic runner with the agent job (the local runtime runs it too). */
export const agentWorker = { kind: 'agent', job: agentJob() } satisfies Omit<TaskRunnerOptions<WorkerDeps>, 'deps'>;

/** SQS consumer of the agent queue (batch size 1, partial batch failures reported). */
export const handler = createTaskHandler({ ...agentWorker, deps: lambdaWorkerDeps });
