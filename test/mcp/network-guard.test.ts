import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Resolver } from '../../lib/browser/network/guard.js';
import { startToolServer, type RunningToolServer } from '../../lib/mcp/main.js';
import { parseServerOptions } from '../../lib/mcp/options.js';
import { hostileRoutes, startCanary, type Canary } from '../support/canary.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { call, createSession, newClient, refOf } from './helpers.js';

/**
 * MCP browser sessions cannot reach the operator's network: a hostile page tries every
 * way out to a loopback canary, and a request reaching the canary fails the test. The
 * page is served on `localhost`, which the test resolver maps to a public address (so
 * the guard lets the page itself load) while the canary is named by 127.0.0.1. The same
 * page through a server started with --allow-private-network does reach the canary,
 * which proves the page really tries.
 */
const SITE_IP = '93.184.216.34';
const resolve: Resolver = async (host) => (host === 'localhost' ? [SITE_IP] : ['127.0.0.1']);
/** The egress proxy dials what the guard judged; the "public" site is really served on loopback. */
const dial = (address: string, port: number): { address: string; port: number } => ({
  address: address === SITE_IP ? '127.0.0.1' : address,
  port,
});
let canary: Canary;
let site: FixtureServer;
let guarded: RunningToolServer;
let open: RunningToolServer;
let page = '';

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixtureServer({ routes: hostileRoutes(() => canary.port) });
  page = `http://localhost:${new URL(site.url).port}`;
  const start = (flags: string[]) =>
    startToolServer(
      parseServerOptions(['--transport', 'http', '--port', '0', '--log-level', 'error', ...flags], {}),
      {},
      { resolve, dial },
    );
  guarded = await start([]);
  open = await start(['--allow-private-network']);
});

afterAll(async () => {
  await guarded?.close();
  await open?.close();
  await site?.close();
  await canary?.close();
});

beforeEach(() => canary.reset());

async function sessionOn(server: RunningToolServer): Promise<{ client: Client; sid: string }> {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.http?.url}/mcp`)));
  return { client, sid: await createSession(client) };
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Loads the hostile page, waits for its scripts to try everything, then clicks its download link, popup link and form, each from a fresh load. */
async function attack(client: Client, sid: string): Promise<{ status: string; clicks: string[] }> {
  const nav = await call(client, 'navigate', { sessionId: sid, url: `${page}/hostile` });
  expect(nav.text).toContain('Title: Hostile page');
  let status = '';
  for (let i = 0; i < 50 && !status.includes('all tried'); i++) {
    status = (await call(client, 'snapshot', { sessionId: sid, roles: ['status'] })).text;
    await pause(100);
  }
  const clicks: string[] = [];
  for (const [role, name] of [
    ['link', 'Download report'],
    ['link', 'Open in new tab'],
    ['button', 'Send form'],
  ] as const) {
    await call(client, 'navigate', { sessionId: sid, url: `${page}/hostile` });
    const snap = (await call(client, 'snapshot', { sessionId: sid })).text;
    clicks.push((await call(client, 'click', { sessionId: sid, ref: refOf(snap, role, name) })).text);
  }
  // Stray requests (beacons, retries) get a moment to arrive.
  await pause(500);
  return { status, clicks };
}

describe('network guard of MCP browser sessions (loopback canary)', () => {
  it('refuses a navigation to the canary, saying why', async () => {
    const { client, sid } = await sessionOn(guarded);
    const res = await call(client, 'navigate', { sessionId: sid, url: `http://127.0.0.1:${canary.port}/admin` });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(
      /Could not open .*ERR_BLOCKED_BY_CLIENT.* \(refused by the network policy: private, loopback and link-local addresses/,
    );
    await client.close();
    expect(canary.requests).toEqual([]);
  });

  it('lets nothing of a hostile page reach the canary: subresources, fetch, XHR, websocket, beacon, event stream, service worker, download, popup, form post', async () => {
    const { client, sid } = await sessionOn(guarded);
    const { status, clicks } = await attack(client, sid);
    await client.close();
    for (const click of clicks) expect(click).toMatch(/^Clicked .*\n(navigation failed|no visible change)/);
    expect(status).toContain('fetch: blocked');
    expect(status).toContain('xhr: blocked');
    expect(status).toContain('ws: closed 1008');
    expect(status).toContain('sw: refused');
    expect(canary.requests).toEqual([]);
    expect(canary.connections()).toBe(0);
  });

  it('the same page through a server with --allow-private-network does reach the canary (the attack is real)', async () => {
    const { client, sid } = await sessionOn(open);
    await attack(client, sid);
    await client.close();
    const paths = canary.requests.map((r) => r.split(' ')[1]);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/style.css',
        '/script.js',
        '/img.png',
        '/frame',
        '/fetch',
        '/xhr',
        '/ws',
        '/beacon',
        '/report.zip',
        '/popup',
        '/post',
      ]),
    );
  });
});

/**
 * A redirect from an allowed host into a private address: a route on the context sees only
 * the first URL of a chain, so these are stopped by the session's egress proxy, which
 * judges every connection, hops included.
 */
describe('network guard: redirects into a private address (loopback canary)', () => {
  it('a top-level navigation that redirects to the canary does not reach it', async () => {
    const { client, sid } = await sessionOn(guarded);
    await call(client, 'navigate', { sessionId: sid, url: `${page}/hop` });
    await pause(300);
    await client.close();
    expect(canary.requests).toEqual([]);
  });

  it('an image that redirects to the canary does not reach it', async () => {
    const { client, sid } = await sessionOn(guarded);
    expect((await call(client, 'navigate', { sessionId: sid, url: `${page}/redirecting-page` })).text).toContain(
      'Title: Redirecting image',
    );
    await pause(500);
    await client.close();
    expect(canary.requests).toEqual([]);
  });
});
