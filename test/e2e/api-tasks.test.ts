import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startTestRuntime();
});
afterAll(async () => rt?.stop());

const submit = (body: unknown, key?: string) => rt.call('POST', '/v1/tasks', { body, key });

describe('POST /v1/tasks', () => {
  it('answers 201 with taskId, a new sessionId, pending and createdAt', async () => {
    const res = await submit({ endUserId: 'u1', task: 'Find the price' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      taskId: expect.any(String),
      sessionId: expect.any(String),
      status: 'pending',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it.each([
    ['missing task', { endUserId: 'u1' }, /task is required/],
    ['blank task', { endUserId: 'u1', task: '   \n ' }, /task must not be blank/],
    ['task not a string', { endUserId: 'u1', task: 42 }, /task must be a string/],
    ['missing endUserId', { task: 'x' }, /endUserId is required/],
    ['endUserId of 257 characters', { endUserId: 'e'.repeat(257), task: 'x' }, /at most 256/],
    ['maxSteps 0', { endUserId: 'u1', task: 'x', maxSteps: 0 }, /maxSteps/],
    ['maxSteps not integer', { endUserId: 'u1', task: 'x', maxSteps: 2.5 }, /maxSteps/],
    ['startUrl not http', { endUserId: 'u1', task: 'x', startUrl: 'file:///etc/passwd' }, /startUrl/],
    ['schema not an object', { endUserId: 'u1', task: 'x', schema: 'nope' }, /schema/],
    ['include_html_dump not boolean', { endUserId: 'u1', task: 'x', include_html_dump: 'yes' }, /include_html_dump/],
  ])('rejects %s with 400', async (_name, body, message) => {
    const res = await submit(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('accepts an endUserId of exactly 256 characters', async () => {
    expect((await submit({ endUserId: 'e'.repeat(256), task: 'x' })).status).toBe(201);
  });

  it.each([
    ['invalid JSON', '{"task": ', { 'content-type': 'application/json' }, 400, /not valid JSON/],
    ['a JSON array', '[1,2]', { 'content-type': 'application/json' }, 400, /JSON object/],
    ['a wrong Content-Type', '{"endUserId":"u","task":"x"}', { 'content-type': 'text/plain' }, 400, /Content-Type/],
    ['an empty body', '', { 'content-type': 'application/json' }, 400, /body is required/],
    [
      'a body over 1 MiB',
      JSON.stringify({ endUserId: 'u', task: 'x'.repeat(1024 * 1024) }),
      { 'content-type': 'application/json' },
      413,
      /exceeds/,
    ],
  ])('answers %s with a JSON error', async (_name, body, headers, status, message) => {
    const res = await rt.call('POST', '/v1/tasks', { body, headers });
    expect(res.status).toBe(status);
    expect(res.body.error).toMatch(message);
  });

  it('continues a session: same sessionId, ordered turns, turnCount in the list', async () => {
    const first = await submit({ endUserId: 'u2', task: 'turn one' });
    const second = await submit({ endUserId: 'u2', task: 'turn two', sessionId: first.body.sessionId });
    expect(second.status).toBe(201);
    expect(second.body.sessionId).toBe(first.body.sessionId);
    const session = await rt.call('GET', `/v1/sessions/${String(first.body.sessionId)}`);
    expect(session.status).toBe(200);
    expect((session.body.tasks as { task: string }[]).map((t) => t.task)).toEqual(['turn one', 'turn two']);
    const list = await rt.call('GET', '/v1/tasks');
    const row = (list.body.sessions as { sessionId: string; turnCount: number; firstTask: { task: string } }[]).find(
      (s) => s.sessionId === first.body.sessionId,
    );
    expect(row).toMatchObject({ turnCount: 2, firstTask: { task: 'turn one' }, latestStatus: 'pending' });
  });

  it('refuses to continue another end-user’s session with a 400, counting nothing', async () => {
    const first = await submit({ endUserId: 'alice', task: 'my turn' });
    const res = await submit({ endUserId: 'mallory', task: 'what did alice ask?', sessionId: first.body.sessionId });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/another endUserId/);
    const session = await rt.call('GET', `/v1/sessions/${String(first.body.sessionId)}`);
    expect((session.body.tasks as unknown[]).length).toBe(1);
  });

  it('answers 404 for an unknown sessionId and 403 for another business’s', async () => {
    expect((await submit({ endUserId: 'u', task: 'x', sessionId: 'no-such-session' })).status).toBe(404);
    const foreign = await submit({ endUserId: 'u', task: 'x' }, rt.otherKey);
    const res = await submit({ endUserId: 'u', task: 'x', sessionId: foreign.body.sessionId });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/another business/);
  });

  it('refuses to continue a design session', async () => {
    const design = await rt.call('POST', '/v1/design/extract', {
      body: { url: 'https://example.com', endUserId: 'u' },
    });
    const res = await submit({ endUserId: 'u', task: 'x', sessionId: design.body.sessionId });
    expect(res.status).toBe(400);
  });
});

describe('GET /v1/tasks/{taskId}', () => {
  it('returns the documented record of a pending task', async () => {
    const created = await submit({ endUserId: 'reader', task: 'Read me', maxSteps: 99 });
    const res = await rt.call('GET', `/v1/tasks/${String(created.body.taskId)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      taskId: created.body.taskId,
      sessionId: created.body.sessionId,
      endUserId: 'reader',
      task: 'Read me',
      status: 'pending',
      totalSteps: 0,
      durationMs: 0,
      visitedUrls: [],
      stepSummaries: [],
      createdAt: created.body.createdAt,
      updatedAt: created.body.createdAt,
    });
    // Internal fields never leak.
    for (const f of ['businessId', 'sessionSort', 'agent', 'kind', 'error']) expect(res.body).not.toHaveProperty(f);
  });

  it('answers 404 for an unknown task and 403 for another business’s task', async () => {
    expect((await rt.call('GET', '/v1/tasks/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    const foreign = await submit({ endUserId: 'u', task: 'theirs' }, rt.otherKey);
    const res = await rt.call('GET', `/v1/tasks/${String(foreign.body.taskId)}`);
    expect(res.status).toBe(403);
    expect(res.text).not.toContain('theirs');
  });
});

describe('GET /v1/tasks (sessions list)', () => {
  it.each([
    ['0', 400],
    ['-1', 400],
    ['abc', 400],
    ['2.5', 400],
    ['1', 200],
    ['500', 200],
  ])('limit=%s answers %i', async (limit, status) => {
    const res = await rt.call('GET', `/v1/tasks?limit=${limit}`);
    expect(res.status).toBe(status);
    if (status === 200)
      expect((res.body.sessions as unknown[]).length).toBeLessThanOrEqual(Math.min(Number(limit), 100));
  });

  it('lists most recent sessions first and only the caller’s', async () => {
    const a = await submit({ endUserId: 'order', task: 'older' });
    const b = await submit({ endUserId: 'order', task: 'newer' });
    const mine = (await rt.call('GET', '/v1/tasks?limit=2')).body.sessions as { sessionId: string }[];
    expect(mine.map((s) => s.sessionId)).toEqual([b.body.sessionId, a.body.sessionId]);
    const theirs = (await rt.call('GET', '/v1/tasks', { key: rt.otherKey })).body.sessions as {
      firstTask: { task: string };
    }[];
    expect(theirs.some((s) => s.firstTask.task === 'older' || s.firstTask.task === 'newer')).toBe(false);
  });
});

describe('GET /v1/sessions/{sessionId}', () => {
  it('answers 404 for unknown and 403 for another business’s session', async () => {
    expect((await rt.call('GET', '/v1/sessions/unknown')).status).toBe(404);
    const foreign = await submit({ endUserId: 'u', task: 'x' }, rt.otherKey);
    expect((await rt.call('GET', `/v1/sessions/${String(foreign.body.sessionId)}`)).status).toBe(403);
  });
});

describe('POST /v1/tasks/{taskId}/cancel', () => {
  it('cancels a pending task once, then answers 409', async () => {
    const created = await submit({ endUserId: 'u', task: 'cancel me' });
    const res = await rt.call('POST', `/v1/tasks/${String(created.body.taskId)}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    const again = await rt.call('POST', `/v1/tasks/${String(created.body.taskId)}/cancel`);
    expect(again.status).toBe(409);
    expect((await rt.call('GET', `/v1/tasks/${String(created.body.taskId)}`)).body.status).toBe('cancelled');
  });

  it('does not let another business cancel', async () => {
    const created = await submit({ endUserId: 'u', task: 'mine' });
    expect(
      (await rt.call('POST', `/v1/tasks/${String(created.body.taskId)}/cancel`, { key: rt.otherKey })).status,
    ).toBe(403);
  });
});

describe('sizes DynamoDB would refuse are 400s with clear messages', () => {
  const deep = (levels: number): unknown => (levels === 0 ? 'x' : { a: deep(levels - 1) });

  it.each([
    [
      'a 300 KB startUrl',
      { endUserId: 'u', task: 't', startUrl: `https://example.com/${'a'.repeat(300_000)}` },
      /startUrl must be at most 2048 characters/,
    ],
    [
      'a body nested 40 levels deep',
      { endUserId: 'u', task: 't', extra: deep(40) },
      /nests objects and arrays deeper than 32 levels/,
    ],
    [
      'a schema nested 30 levels deep',
      { endUserId: 'u', task: 't', schema: deep(30) },
      /schema must not nest deeper than 24 levels/,
    ],
    [
      'a sessionId of 300 characters',
      { endUserId: 'u', task: 't', sessionId: 's'.repeat(300) },
      /sessionId must be at most 256 characters/,
    ],
  ])('POST /v1/tasks with %s', async (_label, body, message) => {
    const res = await submit(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('a 300 KB design url', async () => {
    const res = await rt.call('POST', '/v1/design/extract', {
      body: { endUserId: 'u', url: `https://example.com/${'a'.repeat(300_000)}` },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/url must be at most 2048 characters/);
  });

  it.each([
    ['GET', '/v1/tasks/', 'taskId'],
    ['POST', '/v1/tasks/', 'taskId', '/cancel'],
    ['GET', '/v1/sessions/', 'sessionId'],
  ])('%s %s{id} with a 3000-character id', async (method, prefix, name, suffix = '') => {
    const res = await rt.call(method, `${prefix}${'x'.repeat(3000)}${suffix}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`${name} must be at most 256 characters`);
  });
});
