import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from '../fixtures/agent/openai-server.js';
import { shopper } from '../fixtures/agent/policies.js';
import { catalogueRoute } from '../fixtures/agent/site.js';

/**
 * The agent through the whole service: POST /v1/tasks → SQS → the agent worker → a model
 * reached over HTTP through @ai-sdk/openai-compatible (a scripted server on loopback).
 */
let rt: TestRuntime;
let site: FixtureServer;
let llm: ScriptedOpenAIServer;

beforeAll(async () => {
  site = await startFixtureServer({ routes: [catalogueRoute()] });
  llm = await startScriptedOpenAIServer(() => shopper({ query: 'pack', product: /Ridge Pack 30L/ }));
  rt = await startTestRuntime({
    workers: true,
    env: { BTS_MODEL_PROVIDER: 'openai-compatible', BTS_MODEL_BASE_URL: llm.baseUrl, BTS_MODEL: 'scripted' },
  });
}, 90_000);

afterAll(async () => {
  await rt?.stop();
  await site?.close();
  await llm?.close();
});

describe('agent task over the HTTP model provider', () => {
  it('submits, polls and completes with result, stepSummaries and visitedUrls', async () => {
    // Act
    const submit = await rt.call('POST', '/v1/tasks', {
      body: { endUserId: 'shopper-1', task: 'How much is the Ridge Pack 30L?', startUrl: `${site.url}/` },
    });
    expect(submit.status).toBe(201);
    const task = await rt.poll(String(submit.body.taskId));
    // Assess
    expect(task.status, String(task.error)).toBe('completed');
    expect(task.result).toBe('Ridge Pack 30L costs $89.95');
    expect(task.visitedUrls).toEqual([new URL(site.url).host]);
    const steps = task.stepSummaries as { n: number; type: string; msg: string; success: boolean }[];
    expect(steps.map((s) => s.type)).toEqual(['navigate', 'fill', 'click', 'click', 'done']);
    expect(task.totalSteps).toBe(5);
    expect(task.usage).toMatchObject({ provider: 'openai-compatible', model: 'scripted', modelCalls: 4 });
    // The provider path really carried the tools: OpenAI-style function names without dots.
    expect(llm.requests).toHaveLength(4);
    const names = llm.requests[0]?.tools?.map((t) => t.function.name) ?? [];
    expect(names).toContain('content_get_markdown');
    expect(names.some((n) => n.includes('.'))).toBe(false);
  });
});
