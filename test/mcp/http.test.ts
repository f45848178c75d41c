import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startToolServer, type RunningToolServer } from '../../lib/mcp/main.js';
import { parseServerOptions } from '../../lib/mcp/options.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { call, createSession, newClient } from './helpers.js';

/** Streamable HTTP without auth: health, two isolated clients, DNS-rebinding guard, session close. */
let fx: FixtureServer;
let server: RunningToolServer;
let base: string;

beforeAll(async () => {
  fx = await startFixtureServer();
  server = await startToolServer(
    parseServerOptions(['--transport', 'http', '--port', '0', '--log-level', 'error', '--allow-private-network'], {}),
  );
  base = server.http?.url ?? '';
});

afterAll(async () => {
  await server?.close();
  await fx?.close();
});

async function connect(): Promise<Client> {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return client;
}

/** Raw request with a chosen Host header (fetch forbids setting it). */
function rawPost(host: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/mcp`,
      {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('MCP over streamable HTTP', () => {
  it('answers GET /health with 200 and no auth', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  it("keeps two clients isolated: one cannot reach the other's browser session", async () => {
    const a = await connect();
    const b = await connect();
    const sa = await createSession(a);
    await call(a, 'navigate', { sessionId: sa, url: `${fx.url}/pages/article.html` });
    const fromB = await call(b, 'content.get_markdown', { sessionId: sa });
    expect(fromB).toMatchObject({ isError: true, text: expect.stringContaining('Unknown sessionId') });
    const sb = await createSession(b);
    await call(b, 'navigate', { sessionId: sb, url: `${fx.url}/pages/next.html` });
    expect((await call(a, 'content.get_markdown', { sessionId: sa })).text).toContain('Tide Pools Guide');
    expect((await call(b, 'content.get_markdown', { sessionId: sb })).text).toContain('five arms');
    expect(server.http?.sessionCount()).toBeGreaterThanOrEqual(2);
    const before = server.http?.sessionCount() ?? 0;
    await (a.transport as StreamableHTTPClientTransport).terminateSession();
    await a.close();
    expect(server.http?.sessionCount()).toBe(before - 1);
    await b.close();
  });

  it('refuses foreign Host headers on a loopback binding (DNS rebinding)', async () => {
    expect(await rawPost('evil.example:80', initialize)).toBe(403);
    expect(await rawPost(`127.0.0.1:${server.http?.port}`, initialize)).toBe(200);
    expect(await rawPost(`localhost:${server.http?.port}`, initialize)).toBe(200);
  });

  it('rejects requests without a session that are not initialize, and unknown paths', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(400);
    const unknown = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'mcp-session-id': 'nope',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(unknown.status).toBe(404);
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });
});
