import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDashboardTokens } from '../../lib/auth/local-dashboard-tokens.js';
import { createApiKey } from '../../lib/keys/use-cases.js';
import { dashboardSecretFile, startLocalRuntime, type LocalRuntime } from '../../lib/local/runtime.js';
import { checkResponse } from './contract.js';

export interface TestRuntime {
  runtime: LocalRuntime;
  url: string;
  key: string;
  /** A second, unrelated business for isolation tests. */
  otherKey: string;
  dashboardToken(businessId?: string): Promise<string>;
  /** Polls GET /v1/tasks/{taskId} until the task is terminal (SPEC §3). */
  poll(taskId: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** One request; the response must match the OpenAPI document, or this throws a ContractError. */
  call(
    method: string,
    path: string,
    opts?: { key?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    headers: Headers;
    body: Record<string, unknown>;
    text: string;
  }>;
  stop(): Promise<void>;
}

/**
 * An agent model setting that lets POST /v1/tasks accept tasks (a deployment without one
 * answers 503). Its address is a closed loopback port: tests that run agent tasks to the
 * end bring their own scripted model.
 */
export const PLACEHOLDER_MODEL_ENV = {
  BTS_MODEL_PROVIDER: 'openai-compatible',
  BTS_MODEL: 'e2e-placeholder',
  BTS_MODEL_BASE_URL: 'http://127.0.0.1:9/v1',
} as const;

/** The local runtime in this process, on its own temp data dir and a random port. */
export async function startTestRuntime(
  opts: { workers?: boolean; env?: Record<string, string> } = {},
): Promise<TestRuntime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bts-e2e-'));
  const runtime = await startLocalRuntime({
    dataDir,
    port: 0,
    workers: opts.workers ?? false,
    env: { BTS_LOG_LEVEL: 'SILENT', ...PLACEHOLDER_MODEL_ENV, ...opts.env },
  });
  const key = runtime.bootstrapKey?.apiKey ?? '';
  const other = await createApiKey(runtime.deps, { businessId: `other-business-${Date.now()}` });
  const tokens = new LocalDashboardTokens(readFileSync(dashboardSecretFile(dataDir), 'utf8').trim());
  const call: TestRuntime['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const k = o.key === undefined ? key : o.key;
    if (k !== null) headers.authorization ??= `Bearer ${k}`;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(runtime.url + path, { method, headers, body });
    const text = await res.text();
    // Every response of the tests is held to the OpenAPI document (test/support/contract.ts).
    checkResponse(method, runtime.url + path, { status: res.status, headers: res.headers, text });
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* non-JSON answers are asserted on via `text` */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  const poll: TestRuntime['poll'] = async (taskId, timeoutMs = 40_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await call('GET', `/v1/tasks/${taskId}`);
      if (res.status !== 200) throw new Error(`GET /v1/tasks/${taskId} answered ${res.status}: ${res.text}`);
      if (['completed', 'failed', 'cancelled'].includes(String(res.body.status))) return res.body;
      if (Date.now() > deadline) throw new Error(`task ${taskId} still ${String(res.body.status)}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  };
  return {
    runtime,
    poll,
    url: runtime.url,
    key,
    otherKey: other.apiKey,
    dashboardToken: (businessId = runtime.businessId) => tokens.mint(businessId, 600),
    call,
    async stop() {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
