import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  BrowserTaskClient,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  QuotaExceededError,
  RunTimeoutError,
  type StepSummary,
} from '../../clients/typescript/src/index.js';
import { createApiKey } from '../../lib/keys/use-cases.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { fixtureCase, startPublicApi } from '../support/public-api.js';
import type { TestRuntime } from '../support/runtime.js';
import { startClientWorld, type ClientWorld } from './world.js';

/**
 * The TypeScript client against the local runtime over HTTP, workers on: design and agent
 * tasks really run (Chromium, the scripted model server on loopback), errors are the
 * service's own.
 */
let world: ClientWorld;
let rt: TestRuntime;
let shop: FixtureServer;
let pages: FixtureServer;
let client: BrowserTaskClient;

const RIDGE = 'How much is the Ridge Pack 30L?';

beforeAll(async () => {
  world = await startClientWorld();
  ({ rt, shop, pages } = world);
  client = new BrowserTaskClient({ baseUrl: rt.url, apiKey: rt.key, dashboardToken: await rt.dashboardToken() });
}, 120_000);

afterAll(async () => world?.close());

describe('design', () => {
  it('run() extracts a fixture site to completion', async () => {
    // Act
    const task = await client.design.run(`${pages.url}/design/acme/`, { endUserId: 'ts-designer' });
    // Assess
    expect(task.status, task.error).toBe('completed');
    expect(task.design?.extractors).toEqual(['images', 'fonts', 'colors', 'icons', 'tokens', 'logo']);
    const colors = task.design?.results.colors;
    expect(colors && 'colors' in colors ? colors.colors.map((c) => c.hex.toLowerCase()) : []).toContain('#2563eb');
    const logo = task.design?.results.logo;
    expect(logo && 'logo' in logo ? logo.logo : undefined).toMatchObject({
      found: true,
      src: expect.stringContaining('acme-logo.png'),
    });
  });

  it('a single extractor goes through the path alias and runs alone', async () => {
    const submitted = await client.design.extract(`${pages.url}/design/acme/`, {
      endUserId: 'ts-designer',
      extractors: ['fonts'],
    });
    expect(submitted).toMatchObject({ status: 'pending', extractors: ['fonts'], enableIpRotation: false });
    const task = await client.tasks.wait(submitted.taskId);
    expect(task.status, task.error).toBe('completed');
    expect(Object.keys(task.design?.results ?? {})).toEqual(['fonts']);
  });
});

describe('agent tasks', () => {
  it('run() completes with the scripted model, reporting each new step once', async () => {
    // Prepare
    const batches: StepSummary[][] = [];
    // Act
    const task = await client.tasks.run(
      { endUserId: 'ts-shopper', task: RIDGE, startUrl: `${shop.url}/` },
      { onProgress: (steps) => batches.push(steps), timeoutMs: 90_000 },
    );
    // Assess
    expect(task.status, task.error).toBe('completed');
    expect(task.result).toBe('Ridge Pack 30L costs $89.95');
    expect(batches.every((b) => b.length > 0)).toBe(true);
    expect(batches.flat()).toEqual(task.stepSummaries);
    expect(task.stepSummaries.map((s) => s.type)).toEqual(['navigate', 'fill', 'click', 'click', 'done']);
    const session = await client.sessions.get(task.sessionId);
    expect(session.tasks.map((t) => t.taskId)).toEqual([task.taskId]);
    const { sessions } = await client.tasks.list({ limit: 5 });
    expect(sessions.map((s) => s.sessionId)).toContain(task.sessionId);
  });

  it('times out with the last task seen, then cancels it (409 once finished)', async () => {
    // Act
    const timedOut = await client.tasks
      .run({ endUserId: 'ts-wanderer', task: 'Wander the catalogue', startUrl: `${shop.url}/` }, { timeoutMs: 1500 })
      .catch((e: unknown) => e);
    // Assess
    expect(timedOut).toBeInstanceOf(RunTimeoutError);
    const { task, taskId, timeoutMs } = timedOut as RunTimeoutError;
    expect(timeoutMs).toBe(1500);
    expect(task?.taskId).toBe(taskId);
    expect(['pending', 'running']).toContain(task?.status);
    const cancelled = await client.tasks.cancel(taskId);
    expect(cancelled.cancelRequested).toBe(true);
    const final = await client.tasks.wait(taskId, { timeoutMs: 60_000 });
    expect(final.status).toBe('cancelled');
    await expect(client.tasks.cancel(taskId)).rejects.toBeInstanceOf(ConflictError);
  });

  it('stops waiting when the caller aborts', async () => {
    const { taskId } = await client.tasks.create({
      endUserId: 'ts-wanderer',
      task: 'Wander again',
      startUrl: `${shop.url}/`,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(client.tasks.wait(taskId, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    await client.tasks.cancel(taskId);
    expect((await client.tasks.wait(taskId, { timeoutMs: 60_000 })).status).toBe('cancelled');
  });
});

describe('lookup tasks', () => {
  it('run() completes a model-free lookup with the mapped fields', async () => {
    // Prepare: the public API is the offline TLS stand-in, behind the worker's real guard.
    const api = await startPublicApi();
    const restore = rt.runtime.swapPorts({ network: api.policy() });
    try {
      const c = fixtureCase('npm', 'package');
      // Act
      const task = await client.tasks.run({
        endUserId: 'ts-lookup',
        lookup: { site: 'npm', operation: 'package', params: c.params },
      });
      // Assess
      expect(task.status, task.error).toBe('completed');
      expect(task.result).toEqual(c.expect);
      expect(task.structured_content).toEqual(c.expect);
      expect(task.stepSummaries?.map((s) => s.type)).toEqual(['fast_path']);
    } finally {
      restore();
      await api.close();
    }
  });
});

describe('typed errors', () => {
  it('quota exhaustion raises QuotaExceededError with limit and used', async () => {
    // Prepare
    const businessId = `ts-quota-${Date.now()}`;
    const key = await createApiKey(rt.runtime.deps, { businessId }, {});
    await rt.runtime.deps.businesses.setQuota(businessId, 1, new Date());
    const limited = new BrowserTaskClient({ baseUrl: rt.url, apiKey: key.apiKey });
    await limited.tasks.create({ endUserId: 'q', task: 'the only one this month' });
    // Act
    const error = await limited.tasks.create({ endUserId: 'q', task: 'one too many' }).catch((e: unknown) => e);
    // Assess
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toMatchObject({ status: 429, limit: 1, used: 1, error: expect.stringMatching(/quota/) });
    expect((error as QuotaExceededError).requestId).toEqual(expect.any(String));
    await expect(limited.design.extract('https://example.com/', { endUserId: 'q' })).rejects.toBeInstanceOf(
      QuotaExceededError,
    );
  });

  it('maps 400 and 404 with the API’s message', async () => {
    await expect(client.tasks.create({ endUserId: 'u', task: '   ' })).rejects.toMatchObject({
      constructor: BadRequestError,
      status: 400,
      error: 'task must not be blank',
    });
    await expect(client.tasks.get('no-such-task')).rejects.toMatchObject({ constructor: NotFoundError, status: 404 });
  });
});

describe('credentials', () => {
  it('round trip: put, status, delete one field, delete all', async () => {
    expect(
      await client.credentials.put('ts-user', { redditSession: 'r-secret', twitterAuthToken: 't-secret' }),
    ).toEqual({ ok: true });
    expect(await client.credentials.get('ts-user')).toEqual({
      endUserId: 'ts-user',
      platforms: { twitter: true, reddit: true, tiktok: false, instagram: false },
    });
    await client.credentials.delete('ts-user', ['redditSession']);
    expect((await client.credentials.get('ts-user')).platforms).toMatchObject({ twitter: true, reddit: false });
    await client.credentials.delete('ts-user');
    expect((await client.credentials.get('ts-user')).platforms.twitter).toBe(false);
  });
});

describe('API keys (dashboard token)', () => {
  it('mints a key, uses it, lists it, revokes it: 403 after', async () => {
    // Act
    const created = await client.apiKeys.create({ label: 'ts-client' });
    const other = new BrowserTaskClient({ baseUrl: rt.url, apiKey: created.apiKey });
    await other.tasks.list();
    const { keys } = await client.apiKeys.list();
    expect(keys.find((k) => k.keyId === created.keyId)).toMatchObject({
      label: 'ts-client',
      revokedAt: null,
      lastUsedAt: expect.any(String),
    });
    expect(await client.apiKeys.revoke(created.keyId)).toEqual({ ok: true });
    // Assess
    const denied = await other.tasks.list().catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect(denied).toMatchObject({ status: 403, error: expect.stringMatching(/revoked/) });
  });

  it('refuses an API key where a dashboard token belongs (401)', async () => {
    const wrong = new BrowserTaskClient({ baseUrl: rt.url, apiKey: rt.key, dashboardToken: rt.key });
    await expect(wrong.apiKeys.list()).rejects.toBeInstanceOf(AuthenticationError);
  });
});
