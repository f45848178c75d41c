import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCase, startPublicApi, type PublicApi } from '../support/public-api.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

/**
 * Model-free lookup tasks (our addition to SPEC §4.1): POST /v1/tasks with `lookup` runs a
 * knowledge-graph recipe with no model and no browser, on a deployment that has no model
 * configured, as a fresh `npm start` is. The public API is the offline TLS stand-in,
 * reached through the worker's real network guard.
 */
let rt: TestRuntime;
let api: PublicApi;
let restore: () => void;

beforeAll(async () => {
  rt = await startTestRuntime({ workers: true });
  api = await startPublicApi();
  const { BTS_MODEL_PROVIDER: _dropped, ...noModel } = rt.runtime.config;
  restore = rt.runtime.swapPorts({ config: noModel, network: api.policy() });
}, 60_000);

afterAll(async () => {
  restore?.();
  await rt?.stop();
  await api?.close();
});

describe('lookup tasks', () => {
  it('complete with the mapped fields in result and structured_content, with a fast_path trace and no model', async () => {
    const c = fixtureCase('npm', 'package');
    const submit = await rt.call('POST', '/v1/tasks', {
      body: { endUserId: 'lookup-user', lookup: { site: 'npm', operation: 'package', params: c.params } },
    });
    expect(submit.status, submit.text).toBe(201);
    const task = await rt.poll(String(submit.body.taskId));
    expect(task).toMatchObject({
      status: 'completed',
      task: `Look up npm/package ${JSON.stringify(c.params)}`,
      result: c.expect,
      structured_content: c.expect,
      visitedUrls: ['registry.npmjs.org'],
      totalSteps: 1,
      stepSummaries: [{ n: 1, type: 'fast_path', msg: `Looked up npm/package: ${c.request}`, success: true }],
    });
  });

  it('fail with the endpoint’s reason when the recipe’s call fails', async () => {
    const submit = await rt.call('POST', '/v1/tasks', {
      body: {
        endUserId: 'lookup-user',
        task: 'Which version is nothing-here?',
        lookup: { site: 'npm', operation: 'package', params: { name: 'nothing-here' } },
      },
    });
    expect(submit.status).toBe(201);
    const task = await rt.poll(String(submit.body.taskId));
    expect(task).toMatchObject({
      status: 'failed',
      task: 'Which version is nothing-here?',
      stepSummaries: [{ type: 'fast_path', success: false }],
    });
    expect(task.error).toMatch(/npm\/package: https:\/\/registry\.npmjs\.org\/nothing-here\/latest answered HTTP 404/);
  });

  it.each([
    [{ lookup: { site: 'nmp', operation: 'package', params: { name: 'zod' } } }, /Unknown site "nmp"/],
    [
      { lookup: { site: 'npm', operation: 'latest', params: { name: 'zod' } } },
      /Site "npm" has no operation "latest". Valid operations: "package"/,
    ],
    [{ lookup: { site: 'npm', operation: 'package', params: {} } }, /Invalid params for npm\/package: "name"/],
    [
      { lookup: { site: 'npm', operation: 'package' }, startUrl: 'https://example.com/' },
      /startUrl does not apply to a lookup task/,
    ],
    [{ lookup: 'npm' }, /lookup must be an object/],
    [{}, /task is required \(or give lookup/],
  ])('refuse a bad lookup with a 400 that says what is wrong, counting nothing: %j', async (extra, message) => {
    const res = await rt.call('POST', '/v1/tasks', { body: { endUserId: 'lookup-user', ...extra } });
    expect(res.status).toBe(400);
    expect(String(res.body.error)).toMatch(message);
  });

  it('agent tasks without lookup are still refused on a deployment with no model', async () => {
    const res = await rt.call('POST', '/v1/tasks', {
      body: { endUserId: 'lookup-user', task: 'What is the latest zod?' },
    });
    expect(res.status).toBe(503);
    expect(String(res.body.error)).toMatch(/lookup tasks/);
  });
});
