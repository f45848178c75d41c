import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoApiKeyRepository } from '../../lib/keys/dynamo-api-key-repository.js';
import type { TaskItem } from '../../lib/tasks/model.js';
import { inlineOffloaded, offloadIfLarge } from '../../lib/tasks/result-store.js';
import { loadCredentials } from '../../lib/credentials/use-cases.js';
import { hashApiKey } from '../../lib/keys/model.js';
import { createApiKey } from '../../lib/keys/use-cases.js';
import { uniqueId, useTestAws, type TestAws } from '../support/aws.js';

let env: TestAws;
const deps = () => env.deps;
beforeAll(async () => {
  env = await useTestAws();
});
afterAll(async () => env?.stop());

function task(overrides: Partial<TaskItem> = {}): TaskItem {
  const taskId = uniqueId('task');
  const at = new Date().toISOString();
  return {
    taskId,
    businessId: uniqueId('biz'),
    sessionId: uniqueId('sess'),
    endUserId: 'u',
    task: 't',
    kind: 'design',
    status: 'pending',
    createdAt: at,
    updatedAt: at,
    sessionSort: `${at}#${taskId}`,
    totalSteps: 0,
    durationMs: 0,
    visitedUrls: [],
    stepSummaries: [],
    ...overrides,
  };
}

describe('TaskRepository (conditional state machine)', () => {
  it('claims a pending task once, even under concurrent claims', async () => {
    const t = task();
    await deps().tasks.create(t);
    const now = new Date();
    const claims = await Promise.all(Array.from({ length: 8 }, () => deps().tasks.claim(t.taskId, now, 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(claims.find(Boolean)).toMatchObject({ status: 'running', attempts: 1 });
  });

  it('takes over a running task only after its lease expired', async () => {
    const t = task();
    await deps().tasks.create(t);
    const t0 = new Date();
    await deps().tasks.claim(t.taskId, t0, 1_000);
    expect(await deps().tasks.claim(t.taskId, new Date(t0.getTime() + 500), 1_000)).toBeUndefined();
    expect(await deps().tasks.claim(t.taskId, new Date(t0.getTime() + 2_000), 1_000)).toMatchObject({ attempts: 2 });
  });

  it('never overwrites a terminal status', async () => {
    const t = task();
    await deps().tasks.create(t);
    await deps().tasks.claim(t.taskId, new Date(), 60_000);
    expect(await deps().tasks.finish(t.taskId, 'completed', { result: 'done' }, new Date())).toBe(true);
    expect(await deps().tasks.finish(t.taskId, 'failed', { error: 'late' }, new Date())).toBe(false);
    expect(await deps().tasks.failUnlessTerminal(t.taskId, 'sweeper', new Date())).toBe(false);
    expect(await deps().tasks.claim(t.taskId, new Date(Date.now() + 1e9), 1)).toBeUndefined();
    expect(await deps().tasks.get(t.taskId)).toMatchObject({ status: 'completed', result: 'done' });
  });

  it('cancels a pending task outright and flags a running one', async () => {
    const pending = task();
    const running = task();
    await deps().tasks.create(pending);
    await deps().tasks.create(running);
    await deps().tasks.claim(running.taskId, new Date(), 60_000);
    expect(await deps().tasks.requestCancel(pending.taskId, new Date())).toBe('cancelled');
    expect(await deps().tasks.claim(pending.taskId, new Date(), 1000)).toBeUndefined();
    expect(await deps().tasks.requestCancel(running.taskId, new Date())).toBe('flagged');
    expect(await deps().tasks.get(running.taskId)).toMatchObject({ status: 'running', cancelRequested: true });
  });

  it('tells a progress write whether the task goes on, was asked to cancel, or is gone', async () => {
    const t = task();
    await deps().tasks.create(t);
    await deps().tasks.claim(t.taskId, new Date(), 60_000);
    expect(await deps().tasks.updateRunning(t.taskId, { totalSteps: 1 }, new Date())).toBe('running');
    await deps().tasks.requestCancel(t.taskId, new Date());
    expect(await deps().tasks.updateRunning(t.taskId, { totalSteps: 2 }, new Date())).toBe('cancel-requested');
    expect(await deps().tasks.get(t.taskId)).toMatchObject({ status: 'running', totalSteps: 2 });
    await deps().tasks.finish(t.taskId, 'cancelled', {}, new Date());
    expect(await deps().tasks.updateRunning(t.taskId, { totalSteps: 3 }, new Date())).toBe('gone');
    expect(await deps().tasks.get(t.taskId)).toMatchObject({ status: 'cancelled', totalSteps: 2 });
  });

  it('offloads large results to S3 and inlines them on read', async () => {
    const t = task();
    await deps().tasks.create(t);
    await deps().tasks.claim(t.taskId, new Date(), 60_000);
    const html = '<p>x</p>'.repeat(60_000);
    const fields = await offloadIfLarge(deps().results, t, { html_dump: html, result: 'ok' });
    expect(fields.offloadedKey).toBeDefined();
    expect(fields).not.toHaveProperty('html_dump');
    await deps().tasks.finish(t.taskId, 'completed', fields, new Date());
    const stored = (await deps().tasks.get(t.taskId)) as TaskItem;
    expect(stored.html_dump).toBeUndefined();
    expect((await inlineOffloaded(deps().results, stored)).html_dump).toBe(html);
    // A lost object (expired, or the local runtime's in-memory S3 restarted) does not break reads.
    const lost = await inlineOffloaded(deps().results, { ...stored, offloadedKey: 'results/none/missing.json' });
    expect(lost).toMatchObject({ status: 'completed', taskId: t.taskId });
    expect(lost.html_dump).toBeUndefined();
  });

  it('lists a session’s tasks and finds tasks by status', async () => {
    const sessionId = uniqueId('sess');
    const a = task({ sessionId });
    const b = task({ sessionId });
    await deps().tasks.create(a);
    await deps().tasks.create(b);
    expect((await deps().tasks.listBySession(sessionId)).map((t) => t.taskId).sort()).toEqual(
      [a.taskId, b.taskId].sort(),
    );
    const found = await deps().tasks.listByStatus('pending', new Date(Date.now() + 1000).toISOString(), 1000);
    expect(found.map((t) => t.taskId)).toEqual(expect.arrayContaining([a.taskId, b.taskId]));
  });
});

describe('UsageRepository', () => {
  it('counts atomically: 30 concurrent consumes against a limit of 10 admit exactly 10', async () => {
    const biz = uniqueId('quota');
    const results = await Promise.all(Array.from({ length: 30 }, () => deps().usage.consume(biz, '2026-11', 10)));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    await deps().usage.refund(biz, '2026-11');
    expect(await deps().usage.consume(biz, '2026-11', 10)).toEqual({ ok: true, used: 10 });
    expect(await deps().usage.consume(biz, '2026-12', 10)).toEqual({ ok: true, used: 1 });
  });
});

describe('credentials at rest', () => {
  it('round-trips through the encryptor and refuses another end-user’s context', async () => {
    const biz = uniqueId('creds');
    const ct = await deps().encryptor.encrypt('cookie-value', {
      businessId: biz,
      endUserId: 'a',
      field: 'redditSession',
    });
    await deps().endUsers.upsert(biz, 'a', { redditSession: ct }, new Date());
    expect(await loadCredentials(deps(), biz, 'a')).toEqual({ redditSession: 'cookie-value' });
    await expect(
      deps().encryptor.decrypt(ct, { businessId: biz, endUserId: 'b', field: 'redditSession' }),
    ).rejects.toThrow();
    await deps().endUsers.clear(biz, 'a', [], new Date());
    expect(await loadCredentials(deps(), biz, 'a')).toEqual({});
    expect(await deps().endUsers.get(biz, 'a')).toMatchObject({ businessId: biz, endUserId: 'a' });
  });
});

describe('ApiKeyRepository', () => {
  it('stores only the hash and revokes by key id within the business', async () => {
    const biz = uniqueId('keys');
    const k = await createApiKey(deps(), { businessId: biz }, { label: 'label' });
    const stored = await deps().apiKeys.findByHash(hashApiKey(k.apiKey));
    expect(stored).toMatchObject({ businessId: biz, keyId: k.keyId, label: 'label' });
    expect(JSON.stringify(stored)).not.toContain(k.apiKey);
    expect(await deps().apiKeys.revoke(uniqueId('other'), k.keyId, new Date())).toBe(false);
    expect(await deps().apiKeys.revoke(biz, k.keyId, new Date())).toBe(true);
    expect((await deps().apiKeys.findByHash(hashApiKey(k.apiKey)))?.revokedAt).toEqual(expect.any(String));
  });

  it('revokes a key created a moment ago even while the byBusiness index has not caught up', async () => {
    // Prepare: the same table through a client whose byBusiness queries see nothing yet,
    // as DynamoDB's eventually consistent index does right after a write.
    const late = new Proxy(env.clients.ddb, {
      get(target, prop, receiver) {
        if (prop !== 'send') return Reflect.get(target, prop, receiver);
        return (command: { input?: { IndexName?: string } }) =>
          command instanceof QueryCommand && command.input.IndexName === 'byBusiness'
            ? Promise.resolve({ Items: [] })
            : target.send(command as Parameters<typeof target.send>[0]);
      },
    });
    const repo = new DynamoApiKeyRepository(late, env.config.API_KEYS_TABLE);
    const biz = uniqueId('late');
    const k = await createApiKey({ ...deps(), apiKeys: repo }, { businessId: biz });
    // Act
    const revoked = await repo.revoke(biz, k.keyId, new Date());
    // Assess
    expect(revoked).toBe(true);
    expect((await repo.findByHash(hashApiKey(k.apiKey)))?.revokedAt).toEqual(expect.any(String));
    expect(await repo.revoke(uniqueId('other'), k.keyId, new Date())).toBe(false);
    // The pointer is never listed as a key.
    expect((await deps().apiKeys.listByBusiness(biz)).map((r) => r.keyId)).toEqual([k.keyId]);
  });
});
