import type { ScheduledEvent } from 'aws-lambda';
import { sweepOnce, type SweepReport } from '../../lib/worker/sweeper.js';
import { lambdaWorkerDeps } from './worker-deps.js';

/** EventBridge schedule target: repairs stuck and orphaned tasks, bounded per run. */
export const handler = async (_event: ScheduledEvent): Promise<SweepReport> => sweepOnce(lambdaWorkerDeps());
