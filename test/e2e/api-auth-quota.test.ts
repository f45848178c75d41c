import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quotaMonth } from '../../lib/quota/model.js';
import { createApiKey } from '../../lib/keys/use-cases.js';
import type { TaskQueue } from '../../lib/tasks/task-queue.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startTestRuntime();
});
afterAll(async () => rt?.stop());
const deps = () => rt.runtime.deps;
let restore: (() => void) | undefined;
const overridePorts = (patch: Parameters<TestRuntime['runtime']['swapPorts']>[0]) => {
  restore = rt.runtime.swapPorts(patch);
};
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe('authentication', () => {
  it.each([
    ['no Authorization header', {}, 401],
    ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }, 401],
    ['an unknown API key', { authorization: 'Bearer bts_live_000000000000000000000000000000000000000' }, 401],
    ['garbage', { authorization: 'Bearer !!!' }, 401],
  ])('%s → %i with a JSON error', async (_n, headers, status) => {
    const res = await rt.call('GET', '/v1/tasks', { key: null, headers });
    expect(res.status).toBe(status);
    expect(res.body.error).toEqual(expect.any(String));
  });

  it('refuses a dashboard token on data-plane routes and an API key on /v1/api-keys', async () => {
    const token = await rt.dashboardToken();
    const dataPlane = await rt.call('GET', '/v1/tasks', { key: token });
    expect(dataPlane.status).toBe(401);
    expect(dataPlane.body.error).toMatch(/Dashboard tokens/);
    const keys = await rt.call('GET', '/v1/api-keys');
    expect(keys.status).toBe(401);
    expect(keys.body.error).toMatch(/API keys cannot manage keys/);
  });

  it('GET /health needs no auth', async () => {
    expect((await rt.call('GET', '/health', { key: null })).status).toBe(200);
  });
});

describe('dashboard key management', () => {
  it('creates a key shown once, lists without secrets, revokes with 403 on the very next request', async () => {
    const token = await rt.dashboardToken();
    const created = await rt.call('POST', '/v1/api-keys', { key: token, body: { label: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      businessId: rt.runtime.businessId,
      keyId: expect.stringMatching(/^key_/),
      apiKey: expect.stringMatching(/^bts_live_[0-9A-Za-z]{40}$/),
      prefix: expect.any(String),
    });
    const secret = String(created.body.apiKey);
    expect(secret.startsWith(String(created.body.prefix))).toBe(true);
    expect((await rt.call('GET', '/v1/tasks', { key: secret })).status).toBe(200);

    const list = await rt.call('GET', '/v1/api-keys', { key: token });
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toMatch(/keyHash/);
    const row = (list.body.keys as Record<string, unknown>[]).find((k) => k.keyId === created.body.keyId);
    expect(row).toMatchObject({ label: 'ci', revokedAt: null, lastUsedAt: expect.any(String) });

    expect((await rt.call('DELETE', `/v1/api-keys/${String(created.body.keyId)}`, { key: token })).status).toBe(200);
    const after = await rt.call('GET', '/v1/tasks', { key: secret });
    expect(after.status).toBe(403);
    expect(after.body.error).toMatch(/revoked/);
    // Other keys are unaffected.
    expect((await rt.call('GET', '/v1/tasks')).status).toBe(200);
  });

  it('answers 404 for an unknown key and for another business’s key', async () => {
    const token = await rt.dashboardToken();
    expect((await rt.call('DELETE', '/v1/api-keys/key_nope', { key: token })).status).toBe(404);
    const theirs = await createApiKey(deps(), { businessId: 'third-business' });
    expect((await rt.call('DELETE', `/v1/api-keys/${theirs.keyId}`, { key: token })).status).toBe(404);
    expect((await rt.call('GET', '/v1/tasks', { key: theirs.apiKey })).status).toBe(200);
  });

  it('refreshes lastUsedAt at most once per minute, in the Activity table', async () => {
    const k = await createApiKey(deps(), { businessId: 'touch-business' });
    let writes = 0;
    const real = deps().keyActivity;
    overridePorts({
      keyActivity: Object.assign(Object.create(real) as typeof real, {
        touchLastUsed: async (...args: Parameters<typeof real.touchLastUsed>) => {
          writes++;
          return real.touchLastUsed(...args);
        },
      }),
    });
    const firstWindow = Math.floor(Date.now() / 60_000);
    for (let i = 0; i < 5; i++) await rt.call('GET', '/v1/tasks', { key: k.apiKey });
    // One write per one-minute window the five requests spanned (almost always one).
    expect(writes).toBe(Math.floor(Date.now() / 60_000) - firstWindow + 1);
  });

  it('limits requests per key and minute: 429 with Retry-After, a body unlike the quota 429, other keys unaffected', async () => {
    // Prepare: a fresh key, a limit of 3, and a window with time left in it.
    const k = await createApiKey(deps(), { businessId: 'rate-business' });
    overridePorts({ config: { ...rt.runtime.config, BTS_RATE_LIMIT_PER_MINUTE: 3 } });
    if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
    // Act
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await rt.call('GET', '/v1/tasks', { key: k.apiKey })).status);
    const limited = await rt.call('GET', '/v1/tasks', { key: k.apiKey });
    const other = await rt.call('GET', '/v1/tasks');
    // Assess
    expect(statuses).toEqual([200, 200, 200]);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({
      error: expect.stringMatching(/Rate limit of 3 requests per minute/),
      retryAfterSeconds: retryAfter,
    });
    expect(other.status).toBe(200);
  });
});

describe('routing', () => {
  it('answers 405 with Allow for a wrong verb and 404 for unknown paths', async () => {
    const wrong = await rt.call('PATCH', '/v1/tasks');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST, GET');
    expect(wrong.body.error).toMatch(/not allowed/);
    const creds = await rt.call('POST', '/v1/end-users/u/credentials');
    expect(creds.headers.get('allow')).toBe('PUT, GET, DELETE');
    const missing = await rt.call('GET', '/v2/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual(expect.any(String));
  });
});

describe('quota', () => {
  it('lets exactly `limit` of 30 simultaneous submissions through, across task kinds', async () => {
    const k = await createApiKey(deps(), { businessId: 'race-business' });
    await deps().businesses.setQuota('race-business', 10, new Date());
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? rt.call('POST', '/v1/design/extract', {
              key: k.apiKey,
              body: { url: 'https://example.com', endUserId: 'r' },
            })
          : rt.call('POST', '/v1/tasks', { key: k.apiKey, body: { endUserId: 'r', task: `t${i}` } }),
      ),
    );
    const ok = results.filter((r) => r.status === 201 || r.status === 202);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(10);
    expect(limited).toHaveLength(20);
    for (const r of limited)
      expect(r.body).toMatchObject({ error: expect.stringMatching(/quota/), limit: 10, used: 10 });
  });

  it('defaults to 15 per month', async () => {
    const k = await createApiKey(deps(), { businessId: 'default-quota-business' });
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++)
      statuses.push(
        (await rt.call('POST', '/v1/tasks', { key: k.apiKey, body: { endUserId: 'q', task: 'x' } })).status,
      );
    expect(statuses.filter((s) => s === 201)).toHaveLength(15);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('enqueue failure', () => {
  const failingQueue: TaskQueue = {
    send: async () => {
      throw new Error('SQS is down');
    },
    retryAfter: async () => {
      throw new Error('SQS is down');
    },
  };
  const used = async (businessId: string) => {
    const r = await deps().usage.consume(businessId, quotaMonth(new Date()), 1_000_000);
    await deps().usage.refund(businessId, quotaMonth(new Date()));
    return r.used - 1;
  };

  it('agent task: 500 with taskId, the task reads as failed, the unit is given back', async () => {
    const before = await used(rt.runtime.businessId);
    overridePorts({ queue: failingQueue });
    const res = await rt.call('POST', '/v1/tasks', { body: { endUserId: 'e', task: 'x' } });
    restore?.();
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ error: expect.stringMatching(/enqueue/), taskId: expect.any(String) });
    const task = await rt.call('GET', `/v1/tasks/${String(res.body.taskId)}`);
    expect(task.body).toMatchObject({ status: 'failed', error: expect.stringMatching(/enqueue/) });
    expect(await used(rt.runtime.businessId)).toBe(before);
  });

  it('design task: 500, no task kept, the unit is given back', async () => {
    const before = await used(rt.runtime.businessId);
    const sessionsBefore = (await rt.call('GET', '/v1/tasks?limit=100')).body.sessions as unknown[];
    overridePorts({ queue: failingQueue });
    const res = await rt.call('POST', '/v1/design/extract', { body: { url: 'https://example.com', endUserId: 'e' } });
    restore?.();
    expect(res.status).toBe(500);
    expect(res.body).not.toHaveProperty('taskId');
    expect(await used(rt.runtime.businessId)).toBe(before);
    expect(((await rt.call('GET', '/v1/tasks?limit=100')).body.sessions as unknown[]).length).toBe(
      sessionsBefore.length,
    );
  });

  it('an unexpected failure answers a generic 500 with the request id and no stack', async () => {
    overridePorts({
      tasks: { ...deps().tasks, get: async () => Promise.reject(new Error('disk on fire at /secret/path')) },
    });
    const res = await rt.call('GET', '/v1/tasks/abc');
    restore?.();
    expect(res.status).toBe(500);
    expect(res.body.error).toBe(`Internal server error (request id ${res.headers.get('x-request-id')})`);
    expect(res.text).not.toMatch(/disk on fire|at \//);
  });
});
