import { networkPolicy } from '../../lib/browser/network/guard.js';
import { guardedTextGet } from '../../lib/browser/network/fetch.js';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { BrowserLauncher } from '../../lib/browser/chromium.js';
import { KnowledgeIndex } from '../../lib/knowledge/index.js';
import { closeBrowserSession, createBrowserSession, type BrowserSession } from '../../lib/browser/session.js';
import { renderToolResult } from '../../lib/browser/tool.js';
import { findTool, runTool } from '../../lib/browser/tools/index.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { slowRoutes, type SlowRoutes } from '../support/slow-routes.js';

/**
 * Actions wait for their consequences (lib/browser/settle.ts), through the tool layer the
 * agent uses: the snapshot taken right after each action shows the new state.
 */
let fx: FixtureServer;
let slow: SlowRoutes;
let pool: BrowserLauncher;
let knowledge: KnowledgeIndex;
let session: BrowserSession;

beforeAll(async () => {
  slow = slowRoutes();
  fx = await startFixtureServer({ routes: slow.routes });
  pool = new BrowserLauncher({ headless: true });
  knowledge = await KnowledgeIndex.load(resolve(import.meta.dirname, '../../data/knowledgegraphindex'));
});

afterAll(async () => {
  await pool?.close();
  slow?.release();
  await fx?.close();
});

beforeEach(async () => {
  session = await createBrowserSession((await pool.lease('settle')).browser);
});

afterEach(async () => {
  await closeBrowserSession(session);
});

async function tool(
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean; ms: number }> {
  const t = findTool(name);
  if (!t) throw new Error(`no tool ${name}`);
  const started = Date.now();
  const r = renderToolResult(
    await runTool(t, { session: async () => session, knowledge, http: guardedTextGet(networkPolicy(true)) }, args),
  );
  return { text: r.text, isError: r.isError, ms: Date.now() - started };
}

async function open(page: string): Promise<string> {
  expect((await tool('navigate', { url: `${fx.url}/pages/settle/${page}` })).isError).toBe(false);
  return (await tool('snapshot')).text;
}

const refOf = (snap: string, role: string, name: string): string => {
  const ref = /\[ref=([a-z0-9]+)\]/.exec(snap.split('\n').find((l) => l.includes(`${role} "${name}"`)) ?? '')?.[1];
  if (!ref) throw new Error(`No ${role} "${name}" in:\n${snap}`);
  return ref;
};

describe('actions wait for what they cause', () => {
  it('a button that fetches (two chained calls) then renders: the next snapshot shows the data', async () => {
    const snap = await open('fetch.html');
    const clicked = await tool('click', { ref: refOf(snap, 'button', 'Load orders') });
    expect(clicked.text.split('\n')).toEqual([
      expect.stringMatching(/^Clicked button "Load orders"$/),
      'page updated',
      expect.stringContaining('Page: '),
    ]);
    const after = (await tool('snapshot')).text;
    expect(after).toContain('Loaded 3 orders, total €184.50');
    expect(after).toContain('Order 1003: stove');
  });

  it('a click that changes nothing says so', async () => {
    const snap = await open('fetch.html');
    const clicked = await tool('click', { ref: refOf(snap, 'button', 'Do nothing') });
    expect(clicked.text).toContain('no visible change');
    expect(clicked.ms).toBeLessThan(2_000);
  });

  it('a link whose navigation starts 150 ms after the click: the next snapshot is the new page', async () => {
    const snap = await open('delayed-link.html');
    const clicked = await tool('click', { ref: refOf(snap, 'link', 'Continue to payment') });
    expect(clicked.text).toContain(`navigated to ${fx.url}/pages/settle/arrived.html`);
    expect((await tool('snapshot')).text).toContain('heading "Payment details"');
  });

  it('a link that opens a slow page in a new tab: the answer and the next snapshot are the new tab', async () => {
    const snap = await open('delayed-link.html');
    const clicked = await tool('click', { ref: refOf(snap, 'link', 'Open the terms in a new tab') });
    expect(clicked.text).toContain(`navigated to ${fx.url}/slow/page?ms=300`);
    expect((await tool('snapshot')).text).toContain('heading "Worth the wait"');
  });

  it('a form posting to a server that takes 300 ms: click, Enter and fill_form submit all land on the answer', async () => {
    let snap = await open('slow-form.html');
    await tool('fill', { ref: refOf(snap, 'textbox', 'Name'), value: 'Ada' });
    const clicked = await tool('click', { ref: refOf(snap, 'button', 'Place order') });
    expect(clicked.text).toContain(`navigated to ${fx.url}/slow/submit?ms=300`);
    expect((await tool('snapshot')).text).toContain('Thank you, Ada.');

    snap = await open('slow-form.html');
    const entered = await tool('fill', { ref: refOf(snap, 'textbox', 'Name'), value: 'Grace', submit: true });
    expect(entered.text).toMatch(/filled "Grace", then pressed Enter\nnavigated to /);
    expect((await tool('snapshot')).text).toContain('Thank you, Grace.');

    snap = await open('slow-form.html');
    const submitted = await tool('fill_form', {
      fields: [{ ref: refOf(snap, 'textbox', 'Name'), value: 'Linus' }],
      submit: true,
    });
    expect(submitted.text).toContain('Submitted the form\nnavigated to ');
    expect((await tool('snapshot')).text).toContain('Thank you, Linus.');

    const back = await tool('interact', { action: 'back' });
    expect(back.text).toContain(`navigated to ${fx.url}/pages/settle/slow-form.html`);
    expect((await tool('snapshot')).text).toContain('heading "Place an order"');
  });

  it('a page with a never-ending long poll and beacons does not hold an action that causes neither', async () => {
    const snap = await open('long-poll.html');
    const clicked = await tool('click', { ref: refOf(snap, 'button', 'Add note') });
    expect(clicked.text).toContain('page updated');
    // Far below the 5 s cap: the long poll opened at load is not the click's.
    expect(clicked.ms).toBeLessThan(3_000);
    expect((await tool('snapshot')).text).toContain('Note 1');
  });

  it('an action that starts a request which never ends answers at the cap, saying what was still running', async () => {
    const snap = await open('long-poll.html');
    const clicked = await tool('click', { ref: refOf(snap, 'button', 'Subscribe to updates') });
    expect(clicked.ms).toBeLessThan(6_500);
    expect(clicked.text).toMatch(
      /page updated \(answered after [\d.]+ s while 1 request\(s\) still running, e\.g\. .*\/slow\/never\?from=click\)/,
    );
    expect((await tool('snapshot', { roles: ['status'] })).text).toContain('Subscribed');
  });
});
