import type { WorkerDeps } from '../../lib/worker-deps.js';
import { runDesignJob } from '../../lib/design/job.js';
import { createTaskHandler, type TaskRunnerOptions } from '../../lib/worker/run-task.js';
import { lambdaWorkerDeps } from './worker-deps.js';

/** The design worker: the generic runner with the design job (the local runtime runs it too). */
export const designWorker = { kind: 'design', job: runDesignJob } satisfies Omit<TaskRunnerOptions<WorkerDeps>, 'deps'>;

/** SQS consumer of the design queue (batch size 1, partial batch failures reported). */
export const handler = createTaskHandler({ ...designWorker, deps: lambdaWorkerDeps });
