import type { BrowserLauncher } from '../browser/chromium.js';
import { withGuardedSession } from '../browser/guarded-session.js';
import type { NetworkPolicy } from '../browser/network/guard.js';
import { pickProxy } from '../browser/proxy.js';
import type { Config } from '../config.js';
import { describeError, TaskFailedError } from '../errors.js';
import type { DesignResult, StepSummary, TaskItem } from '../tasks/model.js';
import type { Job, JobOutput } from '../worker/job.js';
import type { AssetStore } from './asset-store.js';
import { extractDesign, prepareDesignPage } from './extract.js';

/** What a design extraction needs besides the runner's own deps. */
export interface DesignJobDeps {
  browsers: BrowserLauncher;
  network: NetworkPolicy;
  assets: AssetStore;
  config: Pick<Config, 'BTS_PROXY_POOL'>;
}

/** Internal timings kept on the item beside the spec's `design.durationMs` (bench, support). */
export type DesignTimings = NonNullable<TaskItem['designTimings']>;

/** Design pages render as a visitor on a common desktop sees them, whatever fingerprint a session would draw. */
const DESIGN_VIEWPORT = {
  viewport: { width: 1366, height: 900 },
  deviceScaleFactor: 1,
  colorScheme: 'light',
  locale: 'en-US',
} as const;

/** The proxy for `enableIpRotation`: one of the pool, or the task-level error saying the pool is missing or broken. */
export function rotationProxy(pool: readonly string[], pick?: (n: number) => number): string {
  const url = pickProxy(pool, pick);
  if (!url) throw new TaskFailedError('IP rotation was requested but no proxy pool is configured (BTS_PROXY_POOL)');
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new TaskFailedError('IP rotation is misconfigured: a BTS_PROXY_POOL entry is not a valid URL');
  }
  if (!/^(https?|socks5):$/.test(protocol)) {
    throw new TaskFailedError(`IP rotation is misconfigured: unsupported proxy scheme ${protocol} in BTS_PROXY_POOL`);
  }
  return url;
}

/** A design task's trace (SPEC §2.1): the hosts it visited and one step for the load plus one per extractor. */
class DesignTrace {
  private readonly steps: StepSummary[] = [];
  private readonly visited: string[];

  constructor(requested: string, final: string) {
    const hosts = [requested, final].flatMap((u) => {
      try {
        return [new URL(u).host];
      } catch {
        return [];
      }
    });
    this.visited = [...new Set(hosts)];
  }

  step(type: string, msg: string, success: boolean): void {
    this.steps.push({ n: this.steps.length + 1, type, msg, success });
  }

  fields(): Pick<TaskItem, 'stepSummaries' | 'totalSteps' | 'visitedUrls'> {
    return { stepSummaries: this.steps, totalSteps: this.steps.length, visitedUrls: this.visited };
  }
}

/** The design worker's job: a fresh guarded session → load the page → the requested extractors. */
export const runDesignJob: Job<DesignJobDeps> = async ({ task, signal, budgetMs, deps, log }) => {
  const request = task.designRequest;
  if (!request) throw new TaskFailedError('This task has no design request to run');
  // Decided before touching the browser: a misconfiguration fails fast.
  const proxy = request.enableIpRotation ? rotationProxy(deps.config.BTS_PROXY_POOL) : undefined;
  const started = performance.now();
  return withGuardedSession(
    deps.browsers,
    {
      network: deps.network,
      signal,
      tenant: task.businessId,
      contextOptions: DESIGN_VIEWPORT,
      ...(proxy ? { proxy } : {}),
    },
    async ({ session, guard }) => {
      const page = session.page;
      // Checked up front so a refused URL fails with the guard's sentence, not a net:: code.
      await guard.assertAllowed(request.url);
      try {
        // The runner's budget timer fires first, so a slow site reports the budget limit.
        await prepareDesignPage(page, request.url, { timeoutMs: budgetMs });
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        throw new TaskFailedError(
          (await guard.settled()) ?? `Could not load ${request.url}: ${describeError(err, 300)}`,
          err,
        );
      }
      const refusal = await guard.settled();
      if (refusal) throw new TaskFailedError(refusal);
      const loadMs = Math.round(performance.now() - started);
      const trace = new DesignTrace(request.url, page.url());
      trace.step('load', `Loaded ${page.url()} in ${loadMs} ms`, true);
      const { results, inPageMs, runs } = await extractDesign(page, {
        url: request.url,
        extractors: request.extractors,
        assets: deps.assets,
        assetPrefix: `assets/${task.businessId}/${task.taskId}/`,
        network: deps.network,
        onAssetFailure: (f) =>
          f.stage === 'store' ? log.warn('asset upload failed', f) : log.info('asset not downloaded', f),
      });
      // A refused redirect seen while extracting still poisons the result.
      const late = await guard.settled();
      if (late) throw new TaskFailedError(late);
      for (const r of runs) trace.step(r.name, `${r.name}: ${r.summary} in ${r.ms} ms`, r.ok);
      const totalMs = Math.round(performance.now() - started);
      const design: DesignResult = { url: request.url, extractors: request.extractors, durationMs: totalMs, results };
      const designTimings: DesignTimings = { loadMs, inPageMs, totalMs };
      const output: JobOutput = { design, designTimings, ...trace.fields() };
      return output;
    },
  );
};
