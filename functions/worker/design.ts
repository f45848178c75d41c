import { createTaskHandler } from '../../lib/worker/run-task.js';
import { designJob } from '../../lib/worker/design-job.js';

/** SQS consumer of the design queue (batch size 1, partial batch failures reported). */
export const handler = createTaskHandler({ kind: 'design', job: designJob() });
