import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';

/**
 * `npm run bench:api`: the local runtime in its own process (API only, as one Lambda
 * function per endpoint would be), driven by autocannon with 50 connections for 20 s
 * per scenario. Prints requests/s and p50/p99 latency.
 */
const ROOT = resolve(import.meta.dirname, '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const CONNECTIONS = 50;
const dataDir = mkdtempSync(join(tmpdir(), 'bts-bench-'));

const server = spawn(TSX, ['lib/local/main.ts'], {
  cwd: ROOT,
  env: { ...process.env, PORT: '0', BTS_DATA_DIR: dataDir, BTS_LOG_LEVEL: 'WARN', BTS_LOCAL_WORKERS: 'false' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
server.stdout.on('data', (c: Buffer) => (out += c.toString()));
const { url, key } = await new Promise<{ url: string; key: string }>((res, rej) => {
  const t = setInterval(() => {
    const u = /listening on (\S+)/.exec(out)?.[1];
    const k = /(bts_live_\w+)/.exec(out)?.[1];
    if (u && k) {
      clearInterval(t);
      res({ url: u, key: k });
    }
  }, 50);
  server.once('exit', () => rej(new Error(`server exited: ${out}`)));
});
// The bench submits far more than the free tier's 15 tasks.
const quota = spawnSync(
  TSX,
  ['lib/local/admin-cli.ts', 'set-quota', '--business', 'local-business', '--limit', '100000000'],
  {
    cwd: ROOT,
    env: { ...process.env, BTS_DATA_DIR: dataDir },
    encoding: 'utf8',
  },
);
if (quota.status !== 0) throw new Error(`set-quota failed: ${quota.stderr}`);

const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const created = (await (
  await fetch(`${url}/v1/tasks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ endUserId: 'bench', task: 'warm-up' }),
  })
).json()) as { taskId: string };

async function run(title: string, opts: autocannon.Options): Promise<autocannon.Result> {
  // A short warm-up so JIT and connection setup are not in the figures.
  await autocannon({ ...opts, duration: 2 });
  const r = await autocannon({ ...opts, duration: DURATION });
  const non2xx = r.non2xx + r.errors;
  console.log(
    `${title.padEnd(28)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx/errors ${non2xx}`,
  );
  return r;
}

console.log(`bench:api — ${CONNECTIONS} connections, ${DURATION} s each, against ${url}`);
const post = await run('POST /v1/tasks', {
  url: `${url}/v1/tasks`,
  method: 'POST',
  connections: CONNECTIONS,
  headers,
  body: JSON.stringify({ endUserId: 'bench', task: 'Find the price of the blue mug' }),
});
const get = await run('GET /v1/tasks/{taskId}', {
  url: `${url}/v1/tasks/${created.taskId}`,
  method: 'GET',
  connections: CONNECTIONS,
  headers,
});

server.kill('SIGINT');
await new Promise((r) => server.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
const ok = get.latency.p99 < 25 && post.latency.p99 < 60;
console.log(`targets (GET p99 < 25 ms, POST p99 < 60 ms): ${ok ? 'met' : 'NOT met'}`);
