import { guardedTextGet } from '../browser/network/fetch.js';
import { AppError, describeError, TaskFailedError } from '../errors.js';
import { runLookup } from '../knowledge/recipes.js';
import type { LookupRequest } from '../tasks/model.js';
import type { JobContext, JobOutput } from '../worker/job.js';
import type { AgentDeps } from './job.js';
import { StepRecorder } from './recorder.js';
import { Redactor } from './redact.js';
import { UsageMeter } from './usage.js';

/**
 * A task that names a recipe (`lookup` on POST /v1/tasks, our addition to SPEC §4.1): the
 * recipe runs directly, with no model and no browser, through the same network guard as
 * everything else. The mapped fields are the result and the structured content; the one
 * step is a `fast_path` step, and the endpoint's host is the visited URL.
 */
export async function runLookupTask(
  { task, deps, signal }: JobContext<AgentDeps>,
  lookup: LookupRequest,
): Promise<JobOutput> {
  const usage = new UsageMeter('none', 'none');
  const recorder = new StepRecorder((p) => deps.tasks.updateRunning(task.taskId, p, deps.now()), new Redactor(), usage);
  const label = `${lookup.site}/${lookup.operation}`;
  const http = guardedTextGet(deps.network, { onFetched: (url) => recorder.visit(url), signal });
  let fields: Record<string, unknown>;
  let url: string;
  try {
    ({ fields, url } = await runLookup(await deps.knowledge(), lookup, http));
  } catch (err) {
    signal.throwIfAborted();
    const why = err instanceof AppError && err.expose ? err.message : `${label} failed: ${describeError(err)}`;
    await recorder.record('fast_path', why, false);
    throw new TaskFailedError(why);
  }
  await recorder.record('fast_path', `Looked up ${label}: ${url}`, true);
  return { ...recorder.progress(), result: fields, structured_content: fields };
}
