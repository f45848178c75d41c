import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../lib/http/routes.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startTestRuntime({ env: { BTS_LOG_LEVEL: 'INFO' } });
});
afterAll(async () => rt?.stop());

const concretePath = (path: string, value: string) => path.replace(/\{\w+\}/g, encodeURIComponent(value) || 'x');

describe('malformed input never produces a 5xx', () => {
  it('answers every fuzzed request with < 500 and JSON errors', async () => {
    const jsonish = fc.oneof(
      fc.json(),
      fc.string(),
      fc.constantFrom('{', '[]', 'null', '{"task":', '{"endUserId":{}}', '\u0000', '{"fields":[1]}'),
      fc
        .dictionary(
          fc.constantFrom(
            'task',
            'endUserId',
            'sessionId',
            'url',
            'extractors',
            'fields',
            'maxSteps',
            'schema',
            'label',
            'redditSession',
            'startUrl',
            'include_html_dump',
            'enableIpRotation',
          ),
          fc.anything(),
        )
        .map((o) => JSON.stringify(o)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        fc.oneof(fc.string(), fc.constantFrom('%', '%zz', '..', 'a/b', 'x'.repeat(300))),
        fc.option(jsonish, { nil: undefined }),
        fc.constantFrom('application/json', 'text/plain', '', 'application/json; charset=utf-8', 'application/xml'),
        fc.constantFrom<'key' | 'none' | 'garbage' | 'dashboard'>('key', 'none', 'garbage', 'dashboard'),
        fc.option(fc.string(), { nil: undefined }),
        async (route, method, param, body, contentType, auth, query) => {
          const headers: Record<string, string> = {};
          if (contentType) headers['content-type'] = contentType;
          if (auth === 'garbage') headers.authorization = 'Bearer \u00ff??';
          if (auth === 'dashboard') headers.authorization = `Bearer ${await rt.dashboardToken()}`;
          const q = query === undefined ? '' : `?limit=${encodeURIComponent(query)}`;
          const res = await rt.call(method, concretePath(route.path, param) + q, {
            key: auth === 'key' ? undefined : null,
            // fetch cannot send a body with GET; every other verb gets the fuzzed one.
            body: method === 'GET' ? undefined : body,
            headers,
          });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(typeof JSON.parse(res.text).error).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('structured logs', () => {
  it('carry request and business ids and never a secret', async () => {
    const lines: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      lines.push(String(chunk));
      return original(chunk, ...rest);
    }) as typeof process.stdout.write;
    try {
      await rt.call('PUT', '/v1/end-users/logs/credentials', { body: { redditSession: 'REDDIT-SECRET-VALUE' } });
      const created = await rt.call('POST', '/v1/tasks', { body: { endUserId: 'logs', task: 'log me' } });
      await rt.call('GET', '/v1/api-keys', { key: await rt.dashboardToken() });
      const all = lines.join('');
      expect(all).not.toContain('REDDIT-SECRET-VALUE');
      expect(all).not.toContain(rt.key);
      expect(all).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // no JWT
      const entries = lines
        .flatMap((l) => l.split('\n'))
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const submit = entries.find((e) => e.handler === 'create-task');
      expect(submit).toMatchObject({
        requestId: expect.any(String),
        businessId: rt.runtime.businessId,
        taskId: created.body.taskId,
        statusCode: 201,
      });
    } finally {
      process.stdout.write = original;
    }
  });
});
