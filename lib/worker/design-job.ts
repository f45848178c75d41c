import { S3AssetStore } from '../aws/s3-asset-store.js';
import { config } from '../config.js';
import { extractDesign, prepareDesignPage, type AssetStore } from '../design/extract.js';
import { TaskFailedError } from '../errors.js';
import type { DesignResult, TaskItem } from '../tasks/model.js';
import { withTaskBrowser } from './browser-context.js';
import type { Resolver } from './network-guard.js';
import type { Job, JobOutput } from './run-task.js';

/** Internal timings kept on the item beside the spec's `design.durationMs` (bench, support). */
export type DesignTimings = NonNullable<TaskItem['designTimings']>;

export interface DesignJobOptions {
  assets?: () => AssetStore;
  resolve?: Resolver;
}

/** The design worker's job: fresh guarded context → load the page → six extractors. */
export function designJob(opts: DesignJobOptions = {}): Job {
  return async ({ task, signal, budgetMs }) => {
    const request = task.designRequest;
    if (!request) throw new TaskFailedError('This task has no design request to run');
    const c = config();
    const started = performance.now();
    return withTaskBrowser(
      {
        enableIpRotation: request.enableIpRotation,
        proxyPool: c.BTS_PROXY_POOL,
        allowPrivateNetwork: c.BTS_ALLOW_PRIVATE_NETWORK,
        signal,
        ...(opts.resolve ? { resolve: opts.resolve } : {}),
      },
      async ({ page, guard }) => {
        // Checked up front so a refused URL fails with the guard's sentence, not a net:: code.
        await guard.assertAllowed(request.url);
        try {
          // The runner's budget timer fires first, so a slow site reports the budget limit.
          await prepareDesignPage(page, request.url, { timeoutMs: budgetMs });
        } catch (err) {
          if (signal.aborted) throw signal.reason;
          throw new TaskFailedError(guard.refusal ?? `Could not load ${request.url}: ${firstLine(err)}`, err);
        }
        if (guard.refusal) throw new TaskFailedError(guard.refusal);
        const loadMs = performance.now() - started;
        const { results, inPageMs } = await extractDesign(page, {
          url: request.url,
          extractors: request.extractors,
          assets: (opts.assets ?? (() => new S3AssetStore()))(),
          assetPrefix: `assets/${task.businessId}/${task.taskId}/`,
          allowUrl: async (url) => (await guard.check(url)) === undefined,
        });
        // A refused redirect seen while extracting still poisons the result.
        if (guard.refusal) throw new TaskFailedError(guard.refusal);
        const totalMs = Math.round(performance.now() - started);
        const design: DesignResult = { url: request.url, extractors: request.extractors, durationMs: totalMs, results };
        const designTimings: DesignTimings = { loadMs: Math.round(loadMs), inPageMs, totalMs };
        const output: JobOutput = { design, designTimings };
        return output;
      },
    );
  };
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // Playwright prefixes "page.goto: " and appends a call log; keep the reason only.
  return (text.split('\n')[0] ?? text).replace(/^page\.goto:\s*/, '').slice(0, 300);
}
