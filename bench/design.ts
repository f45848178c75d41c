/*
 * `npm run bench:design`: design extractions through the local runtime's HTTP API, the
 * way a customer calls it. Prints per site and as p50/p95 the submit-to-completed time
 * and the in-page extraction time, then runs 50 consecutive tasks in the one worker and
 * prints memory before and after (Node and the Chromium process tree).
 * `-- --real` runs the real-site corpus instead (after `npm run corpus:real`): a per-site
 * table of the facts a designer checks first, expected vs got, with totals, then the
 * submit-to-completed p50/p95 over those pages.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startLocalRuntime } from '../lib/local/runtime.js';
import type { DesignTimings } from '../lib/design/job.js';
import { FIXTURES_DIR, startFixtureServer } from '../test/support/fixture-server.js';
import { CACHE_DIR, OWN_PAGES_DIR, cachePresent, loadGroundTruth, loadManifest } from '../test/real/corpus.js';
import { formatTable, scorePage, type ExtractedFacts, type PageScore } from '../test/real/scoring.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SOAK = Number(process.env.BENCH_SOAK ?? 50);

/** The design corpus (one directory per site), or the worker's own page when it is absent. */
function sites(): string[] {
  const dir = join(FIXTURES_DIR, 'design');
  const found = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && !d.name.startsWith('_') && existsSync(join(dir, d.name, 'index.html')))
        .map((d) => `design/${d.name}/`)
    : [];
  return found.length ? found : ['worker/site/'];
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
};

/** RSS of this process's descendants (Chromium and its renderers), from /proc. */
function childTreeRssMb(): number {
  if (!existsSync('/proc')) return NaN;
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      rss.set(Number(name), kb);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* the process ended while we looked */
    }
  }
  let total = 0;
  const stack = [...(children.get(process.pid) ?? [])];
  while (stack.length) {
    const pid = stack.pop() as number;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total / 1024;
}

// A full collection before each reading, so the numbers show retained memory, not garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
};

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const dataDir = mkdtempSync(join(tmpdir(), 'bts-bench-design-'));
// The tight poll below would trip the per-key rate limit, which is not what is measured here.
const runtime = await startLocalRuntime({
  dataDir,
  port: 0,
  workers: true,
  env: { BTS_LOG_LEVEL: 'SILENT', BTS_DEFAULT_QUOTA: '100000', BTS_RATE_LIMIT_PER_MINUTE: '0' },
});
const REAL = process.argv.includes('--real');
if (REAL && !cachePresent()) throw new Error('the real-site corpus is not fetched: run `npm run corpus:real` first');
const fixtures = REAL
  ? await startFixtureServer({ root: CACHE_DIR, chroot: true, mounts: { '/own/': OWN_PAGES_DIR } })
  : await startFixtureServer();
const key = runtime.bootstrapKey?.apiKey ?? '';

async function extract(
  path: string,
): Promise<{ totalMs: number; inPageMs: number; status: string; design?: { results?: Record<string, unknown> } }> {
  const started = performance.now();
  const res = await fetch(`${runtime.url}/v1/design/extract`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${fixtures.url}/${path}`, endUserId: 'bench' }),
  });
  const { taskId } = (await res.json()) as { taskId: string };
  if (res.status !== 202) throw new Error(`submit answered ${res.status}`);
  for (;;) {
    // A tight poll measures the service, not the client's 2 s recommendation.
    await new Promise((r) => setTimeout(r, 25));
    const got = (await (
      await fetch(`${runtime.url}/v1/tasks/${taskId}`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as {
      status: string;
      error?: string;
      design?: { results?: Record<string, unknown> };
    };
    if (got.status === 'pending' || got.status === 'running') continue;
    const totalMs = performance.now() - started;
    if (got.status !== 'completed') console.error(`  ${path}: ${got.status} ${got.error ?? ''}`);
    const item = (await runtime.deps.tasks.get(taskId)) as { designTimings?: DesignTimings } | undefined;
    return { totalMs, inPageMs: item?.designTimings?.inPageMs ?? NaN, status: got.status, design: got.design };
  }
}

/** The real-site corpus through the API: facts table, then timings. */
async function benchReal(): Promise<void> {
  const manifest = loadManifest();
  const truth = loadGroundTruth();
  const warm = await extract(manifest.pages[0]!.path.slice(1));
  console.log(
    `real-site corpus: ${manifest.pages.length} pages; warm-up (browser launch included): ${warm.totalMs.toFixed(0)} ms\n`,
  );
  const rows: { id: string; gt: (typeof truth)[string]; score: PageScore }[] = [];
  const totals: number[] = [];
  for (const p of manifest.pages) {
    const r = await extract(p.path.slice(1));
    totals.push(r.totalMs);
    const res = r.design?.results ?? {};
    const facts: ExtractedFacts = {
      colors: (res.colors as { colors?: ExtractedFacts['colors'] } | undefined)?.colors ?? [],
      fonts: (res.fonts as { fonts?: ExtractedFacts['fonts'] } | undefined)?.fonts ?? [],
      logo: (res.logo as { logo?: ExtractedFacts['logo'] } | undefined)?.logo ?? { found: false },
    };
    rows.push({ id: p.id, gt: truth[p.id]!, score: scorePage(facts, truth[p.id]!) });
  }
  console.log(formatTable(rows));
  console.log(
    `\nreal pages  submit→completed  p50 ${pct(totals, 50).toFixed(0)} ms  p95 ${pct(totals, 95).toFixed(0)} ms`,
  );
}

try {
  if (REAL) {
    await benchReal();
  } else {
    const list = sites();
    console.log(`design bench: ${list.length} site(s), ${ROUNDS} round(s) each, then ${SOAK} consecutive tasks`);
    const warm = await extract(list[0] as string);
    console.log(`warm-up (browser launch included): ${warm.totalMs.toFixed(0)} ms`);

    const totals: number[] = [];
    const inPage: number[] = [];
    console.log('\nsite'.padEnd(36) + 'submit→completed p50'.padStart(22) + 'in-page p50'.padStart(14));
    for (const site of list) {
      const runs = [];
      for (let i = 0; i < ROUNDS; i++) runs.push(await extract(site));
      const t = runs.map((r) => r.totalMs);
      const p = runs.map((r) => r.inPageMs);
      totals.push(...t);
      inPage.push(...p);
      console.log(
        site.padEnd(35) + `${pct(t, 50).toFixed(0)} ms`.padStart(22) + `${pct(p, 50).toFixed(0)} ms`.padStart(14),
      );
    }
    console.log(
      `\nall sites  submit→completed  p50 ${pct(totals, 50).toFixed(0)} ms  p95 ${pct(totals, 95).toFixed(0)} ms`,
    );
    console.log(
      `all sites  in-page            p50 ${pct(inPage, 50).toFixed(0)} ms  p95 ${pct(inPage, 95).toFixed(0)} ms`,
    );

    await settle();
    const before = { node: process.memoryUsage(), browser: childTreeRssMb() };
    let failed = 0;
    const soak: number[] = [];
    for (let i = 0; i < SOAK; i++) {
      const r = await extract(list[i % list.length] as string);
      soak.push(r.totalMs);
      if (r.status !== 'completed') failed++;
    }
    await settle();
    const after = { node: process.memoryUsage(), browser: childTreeRssMb() };
    console.log(
      `\n${SOAK} consecutive tasks: ${failed} not completed, p50 ${pct(soak, 50).toFixed(0)} ms, p95 ${pct(soak, 95).toFixed(0)} ms`,
    );
    console.log(`node RSS     before ${mb(before.node.rss)}  after ${mb(after.node.rss)}`);
    console.log(`node heap    before ${mb(before.node.heapUsed)}  after ${mb(after.node.heapUsed)}`);
    console.log(
      `chromium RSS before ${before.browser.toFixed(0)} MB  after ${after.browser.toFixed(0)} MB (process tree)`,
    );
  }
} finally {
  await fixtures.close();
  await runtime.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
