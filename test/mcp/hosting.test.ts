import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Resolver } from '../../lib/browser/network/guard.js';
import { startToolServer, type RunningToolServer } from '../../lib/mcp/main.js';
import { parseServerOptions } from '../../lib/mcp/options.js';
import { call, createSession, newClient } from './helpers.js';

/**
 * The HTTP server as a multi-tenant host sees it: health that tells nothing, Origin
 * checks, caps per key and per MCP session, refused initializes that leave nothing
 * behind, and proxies only from the operator unless it allows callers' own.
 */
const resolve: Resolver = async (host) => (host.endsWith('.bts.test') ? ['93.184.216.34'] : ['127.0.0.1']);
let proxy: Server;
const proxied: string[] = [];
let hosted: RunningToolServer;
let callerProxies: RunningToolServer;
const clients: Client[] = [];

const start = (flags: string[]): Promise<RunningToolServer> =>
  startToolServer(
    parseServerOptions(['--transport', 'http', '--port', '0', '--log-level', 'error', ...flags], {}),
    {},
    { resolve },
  );

beforeAll(async () => {
  // A forward proxy on loopback: *.bts.test resolves nowhere for Chromium, so only a proxy can answer.
  proxy = createServer((req, res) => {
    proxied.push(req.url ?? '');
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<title>Via proxy</title><main><p>served by the proxy</p></main>');
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  hosted = await start([
    '--max-mcp-sessions-per-key',
    '2',
    '--max-browser-sessions',
    '2',
    '--allowed-origins',
    'https://app.example.com',
    '--proxy',
    proxyUrl,
  ]);
  callerProxies = await start(['--allow-caller-proxy', '--allow-private-network']);
});

afterEach(async () => {
  // Every test ends its MCP sessions, so the per-key cap starts empty for the next.
  for (const c of clients.splice(0)) {
    await (c.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => undefined);
    await c.close();
  }
});

afterAll(async () => {
  await hosted?.close();
  await callerProxies?.close();
  await new Promise<void>((r) => proxy?.close(() => r()));
});

const urlOf = (s: RunningToolServer): string => `${s.http?.url ?? ''}/mcp`;

async function connect(server: RunningToolServer, headers: Record<string, string> = {}): Promise<Client> {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(urlOf(server)), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const initialize = {
  jsonrpc: '2.0',
  id: 7,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function post(server: RunningToolServer, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(urlOf(server), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

describe('hosting the MCP server for many tenants', () => {
  it('answers /health with nothing but ok', async () => {
    await connect(hosted);
    const res = await fetch(`${hosted.http?.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('checks Origin: unlisted browser pages are refused, listed and loopback ones get CORS, non-browsers pass', async () => {
    const evil = await post(hosted, initialize, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: { message: string } }).error.message).toContain('--allowed-origins');
    const listed = await connect(hosted, { origin: 'https://app.example.com' });
    expect((await listed.listTools()).tools.length).toBeGreaterThan(0);
    const preflight = await fetch(urlOf(hosted), {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
    const local = await post(hosted, initialize, { origin: 'http://localhost:6274' });
    expect(local.status).toBe(200);
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    await fetch(urlOf(hosted), {
      method: 'DELETE',
      headers: { 'mcp-session-id': local.headers.get('mcp-session-id') ?? '' },
    });
  });

  it('caps MCP sessions per key with a JSON-RPC error, and frees the slot when one ends', async () => {
    const first = await connect(hosted);
    await connect(hosted);
    const refused = await post(hosted, initialize);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { id: number; error: { code: number; message: string } };
    expect(body.id).toBe(7);
    expect(body.error.message).toMatch(/already has 2 open MCP sessions.*--max-mcp-sessions-per-key/);
    await expect(connect(hosted)).rejects.toThrow(/--max-mcp-sessions-per-key/);
    await (first.transport as StreamableHTTPClientTransport).terminateSession();
    clients.splice(clients.indexOf(first), 1);
    await first.close();
    expect((await (await connect(hosted)).listTools()).tools.length).toBeGreaterThan(0);
  });

  it('a refused initialize leaves no tool server, registry or timer behind', async () => {
    // Raw initializes fill the cap: unlike SDK clients they open no event stream whose keep-alive timer would blur the count.
    const opened = [await post(hosted, initialize), await post(hosted, initialize)].map(
      (r) => r.headers.get('mcp-session-id') ?? '',
    );
    const servers = hosted.http?.toolServerCount();
    const sessions = hosted.http?.sessionCount();
    const before = callerProxies.http?.toolServerCount();
    const live = new Set<unknown>();
    const setSpy = vi.spyOn(globalThis, 'setInterval');
    const clearSpy = vi.spyOn(globalThis, 'clearInterval');
    try {
      // Refused by the cap, then by the transport itself (no Accept header) on the second server.
      expect((await post(hosted, initialize)).status).toBe(429);
      const noAccept = await fetch(urlOf(callerProxies), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(initialize),
      });
      expect(noAccept.status).toBe(406);
      for (const r of setSpy.mock.results) live.add(r.value);
      for (const [handle] of clearSpy.mock.calls) live.delete(handle);
    } finally {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    }
    expect(live.size).toBe(0);
    expect(hosted.http?.toolServerCount()).toBe(servers);
    expect(hosted.http?.sessionCount()).toBe(sessions);
    expect(callerProxies.http?.toolServerCount()).toBe(before);
    for (const id of opened) await fetch(urlOf(hosted), { method: 'DELETE', headers: { 'mcp-session-id': id } });
    expect(hosted.http?.toolServerCount()).toBe((servers ?? 0) - 2);
  });

  it('caps browser sessions per MCP session with a tool error that names the flag', async () => {
    const client = await connect(hosted);
    await createSession(client);
    await createSession(client);
    const third = await call(client, 'create_session');
    expect(third.isError).toBe(true);
    expect(third.text).toContain('already has 2 open browser sessions');
    expect(third.text).toContain('--max-browser-sessions');
  });

  it("refuses a caller's proxy unless allowed, while the operator's --proxy serves every session", async () => {
    const client = await connect(hosted);
    const refused = await call(client, 'create_session', { proxy: 'http://10.0.0.5:3128' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('--allow-caller-proxy (BTS_ALLOW_CALLER_PROXY=true)');
    const sid = await createSession(client);
    expect((await call(client, 'navigate', { sessionId: sid, url: 'http://shop.bts.test/operator' })).text).toContain(
      'Title: Via proxy',
    );
    expect(proxied).toContain('http://shop.bts.test/operator');
  });

  it('with --allow-caller-proxy a caller may route its session through its own proxy', async () => {
    const client = await connect(callerProxies);
    const sid = await createSession(client, { proxy: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
    expect((await call(client, 'navigate', { sessionId: sid, url: 'http://shop.bts.test/caller' })).text).toContain(
      'Title: Via proxy',
    );
    expect(proxied).toContain('http://shop.bts.test/caller');
  });
});
