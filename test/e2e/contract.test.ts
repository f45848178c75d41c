import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/keys/use-cases.js';
import type { WorkerDeps } from '../../lib/worker-deps.js';
import { OPENAPI_JSON } from '../../scripts/openapi-artifacts.js';
import { checkResponse, ContractError, unobservedResponses } from '../support/contract.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

/**
 * Every route's success and error statuses, each at least once, through the real server:
 * rt.call holds each response to the OpenAPI document, and the last test fails if any
 * documented status was never produced (a new status needs a scenario here).
 */
let rt: TestRuntime;
let revoked: string;
let exhausted: string;
let token: string;

beforeAll(async () => {
  rt = await startTestRuntime();
  const deps = rt.runtime.deps;
  const k = await createApiKey(deps, { businessId: rt.runtime.businessId }, { label: 'to revoke' });
  await deps.apiKeys.revoke(rt.runtime.businessId, k.keyId, new Date());
  revoked = k.apiKey;
  const q = await createApiKey(deps, { businessId: 'contract-quota' });
  await deps.businesses.setQuota('contract-quota', 1, new Date());
  exhausted = q.apiKey;
  await rt.call('POST', '/v1/tasks', { key: exhausted, body: { endUserId: 'u', task: 'uses the only unit' } });
  token = await rt.dashboardToken();
}, 60_000);
afterAll(async () => rt?.stop());

/** A port whose every method fails, as a storage or queue outage would. */
function down<T extends object>(port: T): T {
  return new Proxy(port, {
    get: (target, prop) =>
      typeof Reflect.get(target, prop) === 'function'
        ? () => Promise.reject(new Error('port down (contract test)'))
        : Reflect.get(target, prop),
  });
}

/** Runs `fn` while the named ports of the runtime fail. */
async function withOutage<T>(ports: (keyof WorkerDeps)[], fn: () => Promise<T>): Promise<T> {
  const deps = rt.runtime.deps;
  const patch = Object.fromEntries(ports.map((p) => [p, down(deps[p] as object)])) as Partial<WorkerDeps>;
  const restore = rt.runtime.swapPorts(patch);
  try {
    return await fn();
  } finally {
    restore();
  }
}

const DATA_PLANE_PORTS: (keyof WorkerDeps)[] = ['tasks', 'sessions', 'endUsers', 'encryptor', 'queue'];
const BIG = JSON.stringify({ endUserId: 'u', task: 'x'.repeat(1024 * 1024) });
const creds = '/v1/end-users/contract-user/credentials';

async function expectStatus(
  status: number,
  method: string,
  path: string,
  opts: Parameters<TestRuntime['call']>[2] = {},
) {
  const res = await rt.call(method, path, opts);
  expect(res.status, `${method} ${path}: ${res.text.slice(0, 200)}`).toBe(status);
  return res;
}

const submit = async () =>
  (await expectStatus(201, 'POST', '/v1/tasks', { body: { endUserId: 'contract', task: 'Find it' } })).body;

describe('every documented response, through the server', () => {
  it('service routes', async () => {
    await expectStatus(200, 'GET', '/health', { key: null });
    const served = await expectStatus(200, 'GET', '/v1/openapi.json', { key: null });
    expect(served.body).toEqual(JSON.parse(readFileSync(OPENAPI_JSON, 'utf8')));
    expect((await expectStatus(405, 'DELETE', '/v1/tasks')).headers.get('allow')).toBe('POST, GET');
    await expectStatus(404, 'GET', '/v1/nothing-here');
  });

  it('POST /v1/tasks', async () => {
    await submit();
    await expectStatus(400, 'POST', '/v1/tasks', { body: { endUserId: 'u', task: '  ' } });
    await expectStatus(401, 'POST', '/v1/tasks', { key: null, body: { endUserId: 'u', task: 'x' } });
    await expectStatus(403, 'POST', '/v1/tasks', { key: revoked, body: { endUserId: 'u', task: 'x' } });
    await expectStatus(404, 'POST', '/v1/tasks', { body: { endUserId: 'u', task: 'x', sessionId: 'no-such-session' } });
    await expectStatus(413, 'POST', '/v1/tasks', { body: BIG });
    const limited = await expectStatus(429, 'POST', '/v1/tasks', {
      key: exhausted,
      body: { endUserId: 'u', task: 'x' },
    });
    expect(limited.body).toMatchObject({ limit: 1, used: 1 });
    const failed = await withOutage(['queue'], () =>
      expectStatus(500, 'POST', '/v1/tasks', { body: { endUserId: 'u', task: 'x' } }),
    );
    expect(failed.body).toMatchObject({ taskId: expect.any(String), requestId: failed.headers.get('x-request-id') });
  });

  it('GET /v1/tasks', async () => {
    await expectStatus(200, 'GET', '/v1/tasks?limit=5');
    await expectStatus(400, 'GET', '/v1/tasks?limit=0');
    await expectStatus(401, 'GET', '/v1/tasks', { key: null });
    await expectStatus(403, 'GET', '/v1/tasks', { key: revoked });
    await withOutage(DATA_PLANE_PORTS, () => expectStatus(500, 'GET', '/v1/tasks'));
  });

  it('GET /v1/tasks/{taskId} and GET /v1/sessions/{sessionId}', async () => {
    const task = await submit();
    const foreign = (await rt.call('POST', '/v1/tasks', { key: rt.otherKey, body: { endUserId: 'u', task: 'theirs' } }))
      .body;
    for (const [path, theirs] of [
      [`/v1/tasks/${String(task.taskId)}`, `/v1/tasks/${String(foreign.taskId)}`],
      [`/v1/sessions/${String(task.sessionId)}`, `/v1/sessions/${String(foreign.sessionId)}`],
    ] as const) {
      await expectStatus(200, 'GET', path);
      await expectStatus(401, 'GET', path, { key: null });
      await expectStatus(403, 'GET', theirs);
      await expectStatus(404, 'GET', path.replace(/[^/]+$/, 'unknown'));
      await expectStatus(400, 'GET', path.replace(/[^/]+$/, 'i'.repeat(257)));
      await withOutage(DATA_PLANE_PORTS, () => expectStatus(500, 'GET', path));
    }
  });

  it('POST /v1/tasks/{taskId}/cancel', async () => {
    const pending = await submit();
    const path = `/v1/tasks/${String(pending.taskId)}/cancel`;
    expect((await expectStatus(200, 'POST', path)).body).toMatchObject({ status: 'cancelled', cancelRequested: true });
    await expectStatus(409, 'POST', path);
    const running = await submit();
    await rt.runtime.deps.tasks.claim(String(running.taskId), new Date(), 60_000);
    expect((await expectStatus(202, 'POST', `/v1/tasks/${String(running.taskId)}/cancel`)).body).toMatchObject({
      status: 'running',
    });
    await expectStatus(401, 'POST', path, { key: null });
    await expectStatus(403, 'POST', path, { key: revoked });
    await expectStatus(404, 'POST', '/v1/tasks/unknown/cancel');
    await expectStatus(400, 'POST', `/v1/tasks/${'i'.repeat(257)}/cancel`);
    await withOutage(DATA_PLANE_PORTS, () => expectStatus(500, 'POST', path));
  });

  it('end-user credentials', async () => {
    await expectStatus(200, 'PUT', creds, { body: { redditSession: 'secret' } });
    await expectStatus(200, 'GET', creds);
    await expectStatus(200, 'DELETE', creds, { body: { fields: ['redditSession'] } });
    await expectStatus(400, 'PUT', creds, { body: { nothing: 'known' } });
    await expectStatus(400, 'GET', `/v1/end-users/${'e'.repeat(257)}/credentials`);
    await expectStatus(400, 'DELETE', creds, { body: { fields: ['password'] } });
    for (const method of ['PUT', 'GET', 'DELETE']) {
      await expectStatus(401, method, creds, { key: null });
      await expectStatus(403, method, creds, { key: revoked });
      await withOutage(DATA_PLANE_PORTS, () =>
        expectStatus(500, method, creds, method === 'PUT' ? { body: { redditSession: 'v' } } : {}),
      );
    }
    await expectStatus(413, 'PUT', creds, { body: BIG });
    await expectStatus(413, 'DELETE', creds, { body: BIG });
  });

  it.each(['/v1/design/extract', '/v1/design/extract/colors'])('POST %s', async (path) => {
    const body = { url: 'https://example.com/', endUserId: 'designer' };
    await expectStatus(202, 'POST', path, { body });
    await expectStatus(400, 'POST', path === '/v1/design/extract' ? path : '/v1/design/extract/sounds', {
      body: { ...body, extractors: ['none'] },
    });
    await expectStatus(401, 'POST', path, { key: null, body });
    await expectStatus(403, 'POST', path, { key: revoked, body });
    await expectStatus(413, 'POST', path, { body: BIG });
    await expectStatus(429, 'POST', path, { key: exhausted, body });
    await withOutage(['queue'], () => expectStatus(500, 'POST', path, { body }));
  });

  it('dashboard key management', async () => {
    const created = await expectStatus(201, 'POST', '/v1/api-keys', { key: token, body: { label: 'contract' } });
    await expectStatus(201, 'POST', '/v1/api-keys', { key: token });
    await expectStatus(400, 'POST', '/v1/api-keys', { key: token, body: { label: 42 } });
    await expectStatus(413, 'POST', '/v1/api-keys', { key: token, body: BIG });
    await expectStatus(200, 'GET', '/v1/api-keys', { key: token });
    await expectStatus(200, 'DELETE', `/v1/api-keys/${String(created.body.keyId)}`, { key: token });
    await expectStatus(404, 'DELETE', '/v1/api-keys/key_unknown', { key: token });
    for (const [method, path] of [
      ['POST', '/v1/api-keys'],
      ['GET', '/v1/api-keys'],
      ['DELETE', '/v1/api-keys/key_x'],
    ] as const) {
      await expectStatus(401, method, path, { key: rt.key });
      await withOutage(['apiKeys', 'businesses'], () => expectStatus(500, method, path, { key: token }));
    }
  });

  it('a deployment without a model: 503 for agent tasks', async () => {
    const { BTS_MODEL_PROVIDER: _dropped, ...noModel } = rt.runtime.config;
    const restore = rt.runtime.swapPorts({ config: noModel });
    try {
      await expectStatus(503, 'POST', '/v1/tasks', { body: { endUserId: 'u', task: 'needs a model' } });
    } finally {
      restore();
    }
  });

  it('the per-key rate limit: 429 on every API-key route', async () => {
    const k = await createApiKey(rt.runtime.deps, { businessId: 'contract-rate' });
    const restore = rt.runtime.swapPorts({ config: { ...rt.runtime.config, BTS_RATE_LIMIT_PER_MINUTE: 1 } });
    try {
      // The one allowed request and the refusals must fall in one minute window.
      if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
      await expectStatus(200, 'GET', '/v1/tasks', { key: k.apiKey });
      const limited = await expectStatus(429, 'GET', '/v1/tasks', { key: k.apiKey });
      expect(limited.body).toMatchObject({ retryAfterSeconds: expect.any(Number) });
      for (const [method, path] of [
        ['GET', '/v1/tasks/t'],
        ['POST', '/v1/tasks/t/cancel'],
        ['GET', '/v1/sessions/s'],
        ['PUT', creds],
        ['GET', creds],
        ['DELETE', creds],
      ] as const) {
        await expectStatus(429, method, path, {
          key: k.apiKey,
          ...(method === 'PUT' ? { body: { redditSession: 'v' } } : {}),
        });
      }
    } finally {
      restore();
    }
  }, 70_000);

  it('produced every status the document lists', () => {
    expect(unobservedResponses()).toEqual([]);
  });
});

describe('the contract check itself', () => {
  const url = 'http://127.0.0.1:1/v1/tasks';
  const headers = new Headers({ 'x-request-id': 'r1' });
  const submitted = { taskId: 't', sessionId: 's', status: 'pending', createdAt: '2025-01-01T00:00:00.000Z' };

  it.each([
    ['an undocumented field', 201, { ...submitted, businessId: 'leak' }, /must NOT have additional properties/],
    ['a wrong type', 201, { ...submitted, status: 'running' }, /must be equal to constant/],
    ['an undocumented status', 418, { error: 'teapot' }, /status not documented/],
    ['an error without its message', 400, {}, /must have required property 'error'/],
  ])('rejects %s', (_name, status, body, message) => {
    expect(() => checkResponse('POST', url, { status, headers, text: JSON.stringify(body) })).toThrow(ContractError);
    expect(() => checkResponse('POST', url, { status, headers, text: JSON.stringify(body) })).toThrow(message);
  });

  it('rejects a response without x-request-id and a wrong verb that is not a 405', () => {
    expect(() =>
      checkResponse('POST', url, { status: 201, headers: new Headers(), text: JSON.stringify(submitted) }),
    ).toThrow(/x-request-id/);
    expect(() => checkResponse('PATCH', url, { status: 404, headers, text: '{"error":"x"}' })).toThrow(
      /must answer 405/,
    );
  });
});
