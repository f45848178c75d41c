import { guardedTextGet } from '../../lib/browser/network/fetch.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { KnowledgeIndex } from '../../lib/knowledge/index.js';
import { closeBrowserSession, createBrowserSession, type BrowserSession } from '../../lib/browser/session.js';
import { TRUNCATION_MARKER } from '../../lib/browser/snapshot.js';
import { findTool, runTool } from '../../lib/browser/tools/index.js';
import { BrowserLauncher } from '../../lib/browser/chromium.js';
import { networkPolicy } from '../../lib/browser/network/guard.js';
import { renderToolResult } from '../../lib/browser/tool.js';
import { sessionResolver } from '../../lib/mcp/server.js';
import { createLogger } from '../../lib/mcp/log.js';
import { SessionRegistry } from '../../lib/mcp/session-registry.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

/** The tool layer as the agent uses it (tool.handle via runTool, one session), on one Chromium. */
let fx: FixtureServer;
let pool: BrowserLauncher;
let knowledge: KnowledgeIndex;

beforeAll(async () => {
  fx = await startFixtureServer();
  pool = new BrowserLauncher({ headless: true });
  knowledge = await KnowledgeIndex.load(resolve(import.meta.dirname, '../../data/knowledgegraphindex'));
});

afterAll(async () => {
  await pool?.close();
  await fx?.close();
});

async function tool(
  session: BrowserSession,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  const t = findTool(name);
  if (!t) throw new Error(`no tool ${name}`);
  const r = renderToolResult(
    await runTool(t, { session: async () => session, knowledge, http: guardedTextGet(networkPolicy(true)) }, args),
  );
  return { text: r.text, isError: r.isError };
}

const refOf = (snap: string, role: string, name: string): string =>
  /\[ref=([a-z0-9]+)\]/.exec(snap.split('\n').find((l) => l.includes(`${role} "${name}"`)) ?? '')?.[1] ?? 'missing';

describe('browser tool layer', () => {
  it('caps a large page with the narrowing marker; a roles filter is a small fraction of it', async () => {
    const session = await createBrowserSession((await pool.lease('t')).browser);
    await tool(session, 'navigate', { url: `${fx.url}/pages/large.html` });
    const full = await tool(session, 'snapshot');
    expect(full.text).toContain(TRUNCATION_MARKER);
    const buttons = await tool(session, 'snapshot', { roles: ['button'] });
    expect(buttons.text).toContain('button "Checkout now"');
    expect(buttons.text.length).toBeLessThan(full.text.length * 0.25);
    const narrowed = await tool(session, 'snapshot', { contains: 'Details 399' });
    expect(narrowed.text).toContain('link "Details 399"');
    expect(narrowed.text).not.toContain('Details 398');
    // A ref outside the capped part still works: refs of the whole page are remembered.
    expect((await tool(session, 'click', { ref: refOf(narrowed.text, 'link', 'Details 399') })).text).toContain(
      'next.html?p=399',
    );
    await closeBrowserSession(session);
  });

  it('humanized typing lands the same text, and the careful preset is slower', async () => {
    const timeFill = async (preset: 'default' | 'careful'): Promise<number> => {
      const session = await createBrowserSession((await pool.lease('t')).browser, {
        humanize: true,
        humanPreset: preset,
      });
      await tool(session, 'navigate', { url: `${fx.url}/pages/form.html` });
      const snap = (await tool(session, 'snapshot')).text;
      const started = Date.now();
      const res = await tool(session, 'fill', { ref: refOf(snap, 'textbox', 'Full name'), value: 'Grace Hopper' });
      const elapsed = Date.now() - started;
      expect(res.isError).toBe(false);
      expect(await session.page.inputValue('#name')).toBe('Grace Hopper');
      await tool(session, 'click', { ref: refOf(snap, 'button', 'Save draft') });
      expect(await session.page.textContent('#result')).toBe('Saved 1');
      await closeBrowserSession(session);
      return elapsed;
    };
    const normal = await timeFill('default');
    const careful = await timeFill('careful');
    expect(normal).toBeGreaterThan(12 * 25);
    expect(careful).toBeGreaterThan(normal);
  });

  it("sends a session's traffic through its proxy", async () => {
    // A forward proxy on loopback: the page host does not resolve, so only the proxy can answer.
    const seen: string[] = [];
    const proxy = createServer((req, res) => {
      seen.push(req.url ?? '');
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<title>Via proxy</title><main><p>served by the proxy</p></main>');
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const session = await createBrowserSession((await pool.lease('t')).browser, {
      proxy: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    });
    try {
      expect((await tool(session, 'navigate', { url: 'http://shop.bts-proxy.test/item' })).text).toContain(
        'Title: Via proxy',
      );
      expect(seen).toContain('http://shop.bts-proxy.test/item');
    } finally {
      await closeBrowserSession(session);
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });

  it('closes idle sessions of a registry', async () => {
    const registry = new SessionRegistry(
      pool,
      't',
      networkPolicy(true),
      { idleTimeoutMs: 100, maxSessions: 5 },
      createLogger('error'),
    );
    const id = await registry.create({});
    const session = registry.get(id);
    expect(session).toBeDefined();
    await registry.closeIdle(Date.now() + 1_000);
    expect(registry.get(id)).toBeUndefined();
    expect(session?.page.isClosed()).toBe(true);
    await registry.closeAll();
  });

  it('tools that need a session say so when called without one', async () => {
    const t = findTool('snapshot');
    if (!t) throw new Error('no snapshot tool');
    const r = renderToolResult(
      await runTool(
        t,
        { session: sessionResolver(undefined), knowledge, http: guardedTextGet(networkPolicy(true)) },
        {},
      ),
    );
    expect(r.isError).toBe(true);
    expect(r.text).toContain('create_session');
  });
});
