import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedBrowser } from '../../lib/browser/chromium.js';
import { deps } from '../../lib/deps.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

let rt: TestRuntime;
let site: FixtureServer;
const pending = new Set<NodeJS.Timeout>();

async function pollTask(taskId: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await rt.call('GET', `/v1/tasks/${taskId}`);
    expect(res.status).toBe(200);
    if (['completed', 'failed', 'cancelled'].includes(String(res.body.status))) return res.body;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${String(res.body.status)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  rt = await startTestRuntime({ workers: true, env: { BTS_DESIGN_BUDGET_MS: '1500' } });
  site = await startFixtureServer({
    routes: [
      (req, res) => {
        if (!req.url?.startsWith('/slow')) return false;
        // Answers long after the budget; the timer is dropped when the test ends.
        const t = setTimeout(() => {
          pending.delete(t);
          res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>late</h1>');
        }, 4_000);
        pending.add(t);
        return true;
      },
    ],
  });
});

afterAll(async () => {
  for (const t of pending) clearTimeout(t);
  await rt?.stop();
  await site?.close();
  await closeSharedBrowser();
  delete process.env.BTS_DESIGN_BUDGET_MS;
});

describe('time budget', () => {
  it('fails an over-budget design run with an error naming the limit, on time', async () => {
    const submit = await rt.call('POST', '/v1/design/extract', { body: { url: `${site.url}/slow`, endUserId: 'slow' } });
    expect(submit.status).toBe(202);
    const started = Date.now();
    const task = await pollTask(String(submit.body.taskId));
    expect(task).toMatchObject({ status: 'failed', error: 'Design extraction exceeded its 1.5 second limit' });
    // The budget, not the page's 4 s answer, ended the run (browser start-up included).
    expect(Date.now() - started).toBeLessThan(3_900);
    const item = await deps().tasks.get(String(submit.body.taskId));
    expect(item?.leaseExpiresAt).toBeUndefined();
    expect(item?.durationMs).toBeGreaterThanOrEqual(1_500);
  });
});
