import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

/** The production setting: the guard is on, so loopback fixture pages are refused too. */
let rt: TestRuntime;
let site: FixtureServer;
let hits = 0;

beforeAll(async () => {
  rt = await startTestRuntime({ workers: true, env: { BTS_ALLOW_PRIVATE_NETWORK: 'false' } });
  site = await startFixtureServer({
    routes: [
      (req) => {
        hits++;
        return req.url === '__never__';
      },
    ],
  });
});

afterAll(async () => {
  await rt?.stop();
  await site?.close();
});

describe('network guard through the local runtime (BTS_ALLOW_PRIVATE_NETWORK=false)', () => {
  it.each([
    ['http://10.0.0.1', 'Refused to load http://10.0.0.1/: private network addresses are not allowed'],
    [
      'http://169.254.169.254/latest/meta-data/',
      'Refused to load http://169.254.169.254/latest/meta-data/: private network addresses are not allowed',
    ],
    [
      'http://[::ffff:127.0.0.1]/',
      'Refused to load http://[::ffff:7f00:1]/: private network addresses are not allowed',
    ],
  ])('fails a design task for %s with a clear error', async (url, error) => {
    const submit = await rt.call('POST', '/v1/design/extract', { body: { url, endUserId: 'guarded' } });
    expect(submit.status).toBe(202);
    const task = await rt.poll(String(submit.body.taskId));
    expect(task.status).toBe('failed');
    expect(String(task.error)).toContain(error);
    expect(task.design).toBeUndefined();
  });

  it('refuses the loopback fixture site, by address and by host name, without one request reaching it', async () => {
    const port = new URL(site.url).port;
    for (const [url, detail] of [
      [`${site.url}/worker/site/`, '(127.0.0.1 is a loopback address)'],
      [`http://localhost:${port}/worker/site/`, 'localhost resolves to'],
    ] as const) {
      const submit = await rt.call('POST', '/v1/design/extract', { body: { url, endUserId: 'guarded' } });
      const task = await rt.poll(String(submit.body.taskId));
      expect(task.status).toBe('failed');
      expect(String(task.error)).toContain(`Refused to load ${url}: private network addresses are not allowed`);
      expect(String(task.error)).toContain(detail);
    }
    expect(hits).toBe(0);
  });
});
