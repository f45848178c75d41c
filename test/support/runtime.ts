import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deps } from '../../lib/deps.js';
import { LocalDashboardTokens } from '../../lib/auth/dashboard-token.js';
import { createApiKey } from '../../lib/keys/use-cases.js';
import { dashboardSecretFile, startLocalRuntime, type LocalRuntime } from '../../lib/local/runtime.js';

export interface TestRuntime {
  runtime: LocalRuntime;
  url: string;
  key: string;
  /** A second, unrelated business for isolation tests. */
  otherKey: string;
  dashboardToken(businessId?: string): Promise<string>;
  call(method: string, path: string, opts?: { key?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<{
    status: number;
    headers: Headers;
    body: Record<string, unknown>;
    text: string;
  }>;
  stop(): Promise<void>;
}

/** The local runtime in this process, on its own temp data dir and a random port. */
export async function startTestRuntime(opts: { workers?: boolean; env?: Record<string, string> } = {}): Promise<TestRuntime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bts-e2e-'));
  const runtime = await startLocalRuntime({
    dataDir,
    port: 0,
    workers: opts.workers ?? false,
    env: { BTS_LOG_LEVEL: 'SILENT', ...opts.env },
  });
  const key = runtime.bootstrapKey?.apiKey ?? '';
  const other = await createApiKey(deps(), `other-business-${Date.now()}`);
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
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* non-JSON answers are asserted on via `text` */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    runtime,
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
