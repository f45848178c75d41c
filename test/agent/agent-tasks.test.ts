import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sessionStateKey } from '../../lib/agent/session-state.js';
import { uniqueId } from '../support/aws.js';
import {
  accountReader,
  cartShopper,
  shopper,
  sloppyShopper,
  stuckClicker,
  wanderer,
} from '../fixtures/agent/policies.js';
import { REDDIT_SECRET, startAgentWorld, type AgentWorld } from './harness.js';

/**
 * The agent end to end inside the worker: real Chromium on the fixture catalogue, real
 * DynamoDB/S3 emulators, the real runner, and a scripted mock model that reads the page.
 */
let world: AgentWorld;
beforeAll(async () => {
  world = await startAgentWorld();
}, 90_000);
afterAll(async () => {
  await world?.stop();
});

const PRICE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $defs: { money: { type: 'number', minimum: 0 } },
  type: 'object',
  properties: { name: { type: 'string', minLength: 1 }, price: { $ref: '#/$defs/money' } },
  required: ['name', 'price'],
  additionalProperties: false,
  anyOf: [{ required: ['price'] }],
};

describe('agent tasks', () => {
  it('searches the catalogue, opens the product and reports its price', async () => {
    const { task, model } = await world.run({
      task: 'What does the Trail Runner X cost at Peak Outfitters?',
      agent: { startUrl: `${world.site.url}/` },
      policy: shopper({ query: 'trail runner', product: /Trail Runner X/ }),
    });
    expect(task.status).toBe('completed');
    expect(task.result).toBe('Trail Runner X costs $129.00');
    expect(task.structured_content).toBeUndefined();
    expect(task.stepSummaries.map((s) => s.type)).toEqual(['navigate', 'fill', 'click', 'click', 'done']);
    expect(task.stepSummaries.map((s) => s.n)).toEqual([1, 2, 3, 4, 5]);
    expect(task.stepSummaries.every((s) => s.success)).toBe(true);
    expect(task.stepSummaries[1]?.msg).toMatch(/filled "trail runner"/);
    expect(task.totalSteps).toBe(5);
    expect(task.visitedUrls).toEqual([new URL(world.site.url).host]);
    expect(task.durationMs).toBeGreaterThan(0);
    expect(model.calls()).toBe(4);
    expect(task.usage).toMatchObject({ provider: 'scripted', model: 'scripted-policy', modelCalls: 4, costUsd: null });
    expect((task.usage?.totalTokens as number) > 0).toBe(true);
    // The model saw the browser tools under provider-safe names, without sessionId.
    expect(model.model.doGenerateCalls[0]?.tools?.map((t) => t.name)).toEqual(
      expect.arrayContaining(['navigate', 'click', 'fill', 'content_get_markdown', 'interact_find', 'done']),
    );
    expect(JSON.stringify(model.model.doGenerateCalls[0]?.tools)).not.toContain('sessionId');
  });

  it('returns the structured object when the output matches the schema', async () => {
    const { task } = await world.run({
      task: 'Price of the Summit Shell Jacket as JSON',
      agent: { startUrl: `${world.site.url}/`, schema: PRICE_SCHEMA, includeHtmlDump: true },
      policy: shopper({
        query: 'jacket',
        product: /Summit Shell Jacket/,
        data: (name, price) => ({ name, price: Number(price) }),
      }),
    });
    expect(task.status).toBe('completed');
    expect(task.structured_content).toEqual({ name: 'Summit Shell Jacket', price: 249.5 });
    expect(task.result).toEqual(task.structured_content);
    expect(task.html_dump).toMatch(/<h1>Summit Shell Jacket<\/h1>/);
  });

  it('repairs a mismatching output once', async () => {
    const { task, model } = await world.run({
      task: 'Price of the Trail Runner X as JSON',
      agent: { startUrl: `${world.site.url}/`, schema: PRICE_SCHEMA },
      policy: sloppyShopper(true),
    });
    expect(task.status).toBe('completed');
    expect(task.structured_content).toEqual({ name: 'Trail Runner X', price: 129 });
    const dones = task.stepSummaries.filter((s) => s.type === 'done');
    expect(dones.map((s) => s.success)).toEqual([false, true]);
    // The repair round forces the done tool.
    expect(model.model.doGenerateCalls.at(-1)?.toolChoice).toEqual({ type: 'tool', toolName: 'done' });
  });

  it('fails with "did not match the schema" when the repair does not fix it, never completed', async () => {
    const { task } = await world.run({
      task: 'Price of the Trail Runner X as JSON',
      agent: { startUrl: `${world.site.url}/`, schema: PRICE_SCHEMA },
      policy: sloppyShopper(false),
    });
    expect(task.status).toBe('failed');
    expect(task.error).toMatch(/output did not match the schema/);
    expect(task.error).toMatch(/\/price must be number/);
    expect(task.structured_content).toBeUndefined();
    expect(task.result).toBeUndefined();
  });

  it('stops at maxSteps', async () => {
    const { task, model } = await world.run({
      task: 'Browse forever',
      agent: { startUrl: `${world.site.url}/`, maxSteps: 3 },
      policy: wanderer,
    });
    expect(task.status).toBe('failed');
    expect(task.error).toMatch(/all 3 steps/);
    expect(task.error).toMatch(/3 steps and a 1 minute|60 second/);
    // The start page is one of the three steps: totalSteps never exceeds maxSteps.
    expect(model.calls()).toBe(2);
    expect(task.stepSummaries.filter((s) => s.type === 'navigate')).toHaveLength(3);
    expect(task.totalSteps).toBe(3);
  });

  it('ends a run that outlives its time budget, and stops calling the model', async () => {
    const { task, model } = await world.run({
      task: 'Browse slowly',
      agent: { startUrl: `${world.site.url}/` },
      policy: wanderer,
      latencyMs: 300,
      budgetMs: 1_500,
    });
    expect(task.status).toBe('failed');
    expect(task.error).toBe('Task exceeded the 1.5 second time limit');
    const calls = model.calls();
    await new Promise((r) => setTimeout(r, 800));
    expect(model.calls()).toBe(calls);
  });

  it('detects a loop of identical actions', async () => {
    const { task } = await world.run({
      task: 'Find the offers',
      agent: { startUrl: `${world.site.url}/` },
      policy: stuckClicker,
    });
    expect(task.status).toBe('failed');
    expect(task.error).toMatch(/repeated the same action \(click ref=e\d+\) 3 times in a row.*loop detected/);
    expect(task.stepSummaries.at(-1)).toMatchObject({ type: 'click', success: false });
  });

  it('stops at the next step when cancelled', async () => {
    const model = await import('../fixtures/agent/scripted-model.js').then((m) =>
      m.scriptedModel(wanderer, { latencyMs: 150 }),
    );
    const { taskId } = await world.submit({
      task: 'Browse until cancelled',
      agent: { startUrl: `${world.site.url}/` },
    });
    const task = await world.work(taskId, model, {
      during: async (id) => {
        for (let i = 0; i < 100 && ((await world.deps.tasks.get(id))?.stepSummaries.length ?? 0) < 3; i++)
          await new Promise((r) => setTimeout(r, 50));
        await world.deps.tasks.requestCancel(id, new Date());
      },
    });
    expect(task.status).toBe('cancelled');
    expect(task.stepSummaries.length).toBeGreaterThanOrEqual(3);
    const calls = model.calls();
    await new Promise((r) => setTimeout(r, 600));
    expect(model.calls()).toBe(calls);
    expect(calls).toBeLessThan(10);
  });
});

describe('sessions', () => {
  it('a second turn continues in the same browser state and sees the first turn', async () => {
    const businessId = uniqueId('agent-biz');
    const first = await world.submit({
      businessId,
      task: 'Add the Trail Runner X to my cart',
      agent: { startUrl: `${world.site.url}/` },
    });
    const t1 = await world.work(
      first.taskId,
      (await import('../fixtures/agent/scripted-model.js')).scriptedModel(cartShopper),
    );
    expect(t1.status).toBe('completed');
    expect(t1.result).toBe('Added Trail Runner X to the cart');

    const stored = await world.deps.results.get(sessionStateKey(businessId, first.sessionId));
    expect(JSON.stringify(stored)).not.toContain('trail-runner-x'); // encrypted at rest

    const second = await world.submit({ businessId, sessionId: first.sessionId, task: 'What is in my cart?' });
    const model2 = (await import('../fixtures/agent/scripted-model.js')).scriptedModel(cartShopper);
    const t2 = await world.work(second.taskId, model2);
    expect(t2.status).toBe('completed');
    expect(t2.result).toBe('Your cart holds Trail Runner X ($129.00), the item you added earlier');
    expect(t2.stepSummaries[0]).toMatchObject({ type: 'resume', success: true });
    expect(t2.stepSummaries[0]?.msg).toContain('/product/trail-runner-x');
    expect(model2.prompts[0]).toContain('Turn 1');
  });
});

describe('end-user credentials', () => {
  it('signs in with the end-user cookies and keeps the secret from the model, the trace and the dump', async () => {
    const businessId = uniqueId('agent-biz');
    await world.uploadRedditSession(businessId, 'user-r');
    const { task, model } = await world.run({
      businessId,
      endUserId: 'user-r',
      task: 'Check which reddit account I am signed in with',
      agent: { startUrl: `${world.site.crossOriginUrl}/account`, includeHtmlDump: true },
      policy: accountReader,
    });
    expect(task.status).toBe('completed');
    expect(task.result).toBe('Signed in as alice_hikes. session cookie [redacted]');
    expect(task.stepSummaries[0]).toMatchObject({ type: 'auth', success: true });
    expect(model.prompts.join('\n')).not.toContain(REDDIT_SECRET);
    expect(model.prompts.join('\n')).toContain('[redacted]');
    expect(JSON.stringify(task)).not.toContain(REDDIT_SECRET);
    expect(task.html_dump).toContain('Signed in as alice_hikes');
  });

  it('fails at once without uploaded credentials, before any model call', async () => {
    const { task, model } = await world.run({
      task: 'Summarise my reddit front page',
      agent: { startUrl: `${world.site.crossOriginUrl}/account` },
      policy: accountReader,
    });
    expect(task.status).toBe('failed');
    expect(task.error).toBe(
      "Platform authentication required for reddit: upload the end-user's reddit cookies with PUT /v1/end-users/{endUserId}/credentials",
    );
    expect(model.calls()).toBe(0);
  });
});
