import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserTaskClient, ConnectionError, RateLimitError, ServerError } from '../../clients/typescript/src/index.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

const PACKAGE_DIR = resolve(import.meta.dirname, '..', '..', 'clients', 'typescript');

/**
 * An HTTP peer that answers from a script, for what the service does not produce on demand
 * (5xx bursts, Retry-After, a dropped connection): it records every request it gets.
 */
interface ScriptedPeer {
  url: string;
  seen: { method: string; path: string; at: number }[];
  close(): Promise<void>;
}

async function startPeer(
  script: (n: number, method: string) => { status: number; body: unknown; headers?: Record<string, string> } | 'drop',
): Promise<ScriptedPeer> {
  const seen: ScriptedPeer['seen'] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', at: Date.now() });
    const answer = script(seen.length, req.method ?? '');
    if (answer === 'drop') {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'x-request-id': `peer-${seen.length}`,
      ...answer.headers,
    });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const task = {
  taskId: 't1',
  sessionId: 's1',
  endUserId: 'u',
  task: 'x',
  status: 'completed',
  totalSteps: 0,
  durationMs: 0,
  visitedUrls: [],
  stepSummaries: [],
  createdAt: 'c',
  updatedAt: 'u',
};
const fast = { baseDelayMs: 20, maxDelayMs: 50 };

describe('retries over HTTP', () => {
  it('retries a GET through 503s and a dropped connection, then succeeds', async () => {
    const peer = await startPeer((n) =>
      n === 1 ? { status: 503, body: { error: 'busy' } } : n === 2 ? 'drop' : { status: 200, body: task },
    );
    try {
      const client = new BrowserTaskClient({ baseUrl: peer.url, apiKey: 'k', retry: fast });
      expect(await client.tasks.get('t1')).toEqual(task);
      expect(peer.seen.map((s) => `${s.method} ${s.path}`)).toEqual(Array(3).fill('GET /v1/tasks/t1'));
    } finally {
      await peer.close();
    }
  });

  it('never retries a POST, PUT or DELETE', async () => {
    const peer = await startPeer(() => ({ status: 503, body: { error: 'busy', requestId: 'r' } }));
    try {
      const client = new BrowserTaskClient({ baseUrl: peer.url, apiKey: 'k', retry: fast });
      await expect(client.tasks.create({ endUserId: 'u', task: 'x' })).rejects.toBeInstanceOf(ServerError);
      await expect(client.credentials.put('u', { redditSession: 'v' })).rejects.toBeInstanceOf(ServerError);
      await expect(client.credentials.delete('u')).rejects.toBeInstanceOf(ServerError);
      expect(peer.seen.map((s) => s.method)).toEqual(['POST', 'PUT', 'DELETE']);
    } finally {
      await peer.close();
    }
  });

  it('waits out Retry-After on a rate-limited GET, and gives up after maxRetries', async () => {
    const peer = await startPeer((n) =>
      n === 1
        ? { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '1' } }
        : { status: 200, body: task },
    );
    try {
      const client = new BrowserTaskClient({ baseUrl: peer.url, apiKey: 'k', retry: fast });
      await client.tasks.get('t1');
      expect((peer.seen[1]?.at ?? 0) - (peer.seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    } finally {
      await peer.close();
    }
    const always = await startPeer(() => ({ status: 429, body: { error: 'slow down' } }));
    try {
      const client = new BrowserTaskClient({ baseUrl: always.url, apiKey: 'k', retry: { ...fast, maxRetries: 2 } });
      await expect(client.tasks.get('t1')).rejects.toBeInstanceOf(RateLimitError);
      expect(always.seen).toHaveLength(3);
    } finally {
      await always.close();
    }
  });

  it('reports a refused connection as ConnectionError after its retries', async () => {
    const peer = await startPeer(() => ({ status: 200, body: task }));
    await peer.close();
    const client = new BrowserTaskClient({ baseUrl: peer.url, apiKey: 'k', retry: { ...fast, maxRetries: 1 } });
    await expect(client.tasks.get('t1')).rejects.toBeInstanceOf(ConnectionError);
  });

  it('times out a hung request per attempt', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const client = new BrowserTaskClient({ baseUrl: url, apiKey: 'k', timeoutMs: 200, retry: { maxRetries: 0 } });
      await expect(client.tasks.create({ endUserId: 'u', task: 'x' })).rejects.toThrow(/timed out after 200 ms/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('the built package', () => {
  let rt: TestRuntime;
  let outDir: string;
  beforeAll(async () => {
    rt = await startTestRuntime();
    outDir = mkdtempSync(join(tmpdir(), 'bts-ts-client-'));
  }, 60_000);
  afterAll(async () => {
    await rt?.stop();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('compiles with web-standard types only to ESM + .d.ts and works against the service', async () => {
    // Prepare: the package's own tsconfig (no Node types), into a scratch directory.
    await promisify(execFile)(process.execPath, [
      tscBin(),
      '-p',
      join(PACKAGE_DIR, 'tsconfig.json'),
      '--outDir',
      outDir,
    ]);
    writeFileSync(join(outDir, 'package.json'), JSON.stringify({ type: 'module' }));
    expect(readFileSync(join(outDir, 'index.d.ts'), 'utf8')).toContain('BrowserTaskClient');
    const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      dependencies?: object;
    };
    expect(pkg).toMatchObject({ name: '@browser-task-service/client', version: '0.1.0' });
    expect(pkg.dependencies).toBeUndefined();
    // Act
    const built = (await import(
      pathToFileURL(join(outDir, 'index.js')).href
    )) as typeof import('../../clients/typescript/src/index.js');
    const client = new built.BrowserTaskClient({ baseUrl: rt.url, apiKey: rt.key });
    const submitted = await client.tasks.create({ endUserId: 'built', task: 'from the built package' });
    // Assess
    expect((await client.tasks.get(submitted.taskId)).task).toBe('from the built package');
    await expect(client.tasks.get('missing')).rejects.toBeInstanceOf(built.NotFoundError);
  });
});

/** The TypeScript compiler of the workspace, run with this Node. */
function tscBin(): string {
  return resolve(import.meta.dirname, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
}
