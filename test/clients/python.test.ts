import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/keys/use-cases.js';
import type { ScriptedOpenAIServer } from '../fixtures/agent/openai-server.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { fixtureCase, startPublicApi } from '../support/public-api.js';
import type { TestRuntime } from '../support/runtime.js';
import { startClientWorld, type ClientWorld } from './world.js';

/**
 * The Python client (clients/python) against the local runtime over HTTP, workers on:
 * this file starts the runtime, the scripted model server and the fixture sites, then
 * runs `python3 -m unittest` on clients/python/live_tests with their addresses and
 * credentials in the environment. Design and agent tasks really run (Chromium, the
 * scripted model on loopback); errors are the service's own.
 *
 * python3 is a requirement of `npm test` (.ci/run installs it): without it these tests
 * fail, they do not skip.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const LIVE_TESTS = resolve(ROOT, 'clients', 'python', 'live_tests');
const UNIT_TESTS = resolve(ROOT, 'clients', 'python', 'tests');

interface PythonRun {
  code: number | null;
  output: string;
}

/** Runs python3 with `args` from the repository root; never rejects, so the output can be shown. */
function python(args: string[], env: Record<string, string> = {}): Promise<PythonRun> {
  return new Promise((done) => {
    let output = '';
    const child = spawn('python3', args, {
      cwd: ROOT,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (err: NodeJS.ErrnoException) =>
      done({
        code: null,
        output:
          err.code === 'ENOENT'
            ? 'python3 is not installed (or not on PATH): the Python client tests need Python 3.9 or newer'
            : String(err),
      }),
    );
    child.on('close', (code) => done({ code, output }));
  });
}

/** Asserts a unittest run passed every test it found, none skipped, with Python's output on failure. */
function expectPassed(run: PythonRun, atLeast: number): void {
  expect(run.code, run.output).toBe(0);
  const ran = /^Ran (\d+) tests? in /m.exec(run.output);
  expect(Number(ran?.[1] ?? 0), run.output).toBeGreaterThanOrEqual(atLeast);
  expect(run.output, run.output).toMatch(/^OK$/m);
  expect(run.output, run.output).not.toMatch(/skipped|expected failures/);
}

let world: ClientWorld;
let rt: TestRuntime;
let shop: FixtureServer;
let pages: FixtureServer;
let llm: ScriptedOpenAIServer;
let env: Record<string, string>;

beforeAll(async () => {
  world = await startClientWorld();
  ({ rt, shop, pages, llm } = world);
  // A business whose monthly quota is one task, for QuotaExceededError.
  const quotaBusiness = `py-quota-${Date.now()}`;
  const quotaKey = await createApiKey(rt.runtime.deps, { businessId: quotaBusiness }, {});
  await rt.runtime.deps.businesses.setQuota(quotaBusiness, 1, new Date());
  env = {
    BTS_BASE_URL: rt.url,
    BTS_API_KEY: rt.key,
    BTS_DASHBOARD_TOKEN: await rt.dashboardToken(),
    BTS_QUOTA_API_KEY: quotaKey.apiKey,
    BTS_SHOP_URL: shop.url,
    BTS_PAGES_URL: pages.url,
  };
}, 120_000);

afterAll(async () => world?.close());

describe('Python client', () => {
  it('python3 is 3.9 or newer', async () => {
    const run = await python([
      '-c',
      'import sys; print("%d.%d" % sys.version_info[:2]); sys.exit(0 if sys.version_info >= (3, 9) else 1)',
    ]);
    expect(run.code, run.output).toBe(0);
  });

  it('its unit tests pass (stdlib only, loopback stubs, compileall)', async () => {
    expectPassed(await python(['-m', 'unittest', 'discover', '-s', UNIT_TESTS]), 81);
  }, 120_000);

  it('its live tests pass against the local runtime (design, agent, cancel, credentials, API keys, typed errors)', async () => {
    const run = await python(['-m', 'unittest', 'discover', '-v', '-s', LIVE_TESTS, '-p', 'test_*.py'], env);
    expectPassed(run, 11);
    // The scripted model saw the Python client's agent task.
    expect(
      llm.requests.some((r) => JSON.stringify(r).includes('Ridge Pack 30L')),
      run.output,
    ).toBe(true);
  }, 300_000);

  it('runs a model-free lookup task through tasks.run()', async () => {
    // Prepare: the public API is the offline TLS stand-in, behind the worker's real guard.
    const api = await startPublicApi();
    const restore = rt.runtime.swapPorts({ network: api.policy() });
    try {
      const c = fixtureCase('npm', 'package');
      // Act
      const run = await python(['-m', 'unittest', 'discover', '-v', '-s', LIVE_TESTS, '-p', 'live_lookup.py'], {
        ...env,
        BTS_LOOKUP_SITE: 'npm',
        BTS_LOOKUP_OPERATION: 'package',
        BTS_LOOKUP_PARAMS: JSON.stringify(c.params),
        BTS_LOOKUP_EXPECT: JSON.stringify(c.expect),
      });
      // Assess
      expectPassed(run, 1);
      expect(api.requests.length, run.output).toBeGreaterThan(0);
    } finally {
      restore();
      await api.close();
    }
  }, 120_000);
});
