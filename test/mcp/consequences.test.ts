import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { slowRoutes, type SlowRoutes } from '../support/slow-routes.js';
import { call, cliCommand, createSession, newClient, refOf, ROOT } from './helpers.js';

/**
 * An MCP client's view of actions that wait for their consequences: the snapshot it asks
 * for right after `click` already shows what the click caused.
 */
let fx: FixtureServer;
let slow: SlowRoutes;
let client: Client;
let sid: string;

beforeAll(async () => {
  slow = slowRoutes();
  fx = await startFixtureServer({ routes: slow.routes });
  client = newClient();
  const { command, args } = cliCommand(['--log-level', 'warn', '--allow-private-network']);
  await client.connect(new StdioClientTransport({ command, args, cwd: ROOT, stderr: 'inherit' }));
  sid = await createSession(client);
});

afterAll(async () => {
  await client?.close();
  slow?.release();
  await fx?.close();
});

async function open(page: string): Promise<string> {
  await call(client, 'navigate', { sessionId: sid, url: `${fx.url}/pages/settle/${page}` });
  return (await call(client, 'snapshot', { sessionId: sid })).text;
}

const snapshot = async (): Promise<string> => (await call(client, 'snapshot', { sessionId: sid })).text;

describe('MCP actions answer once their consequences are visible', () => {
  it('fetch then render', async () => {
    const snap = await open('fetch.html');
    const clicked = await call(client, 'click', { sessionId: sid, ref: refOf(snap, 'button', 'Load orders') });
    expect(clicked.text).toContain('page updated');
    expect(await snapshot()).toContain('Loaded 3 orders, total €184.50');
  });

  it('a navigation that starts 150 ms after the click', async () => {
    const snap = await open('delayed-link.html');
    const clicked = await call(client, 'click', { sessionId: sid, ref: refOf(snap, 'link', 'Continue to payment') });
    expect(clicked.text).toContain('navigated to ');
    expect(await snapshot()).toContain('Payment details');
  });

  it('a form posting to a server that takes 300 ms', async () => {
    const snap = await open('slow-form.html');
    await call(client, 'fill', { sessionId: sid, ref: refOf(snap, 'textbox', 'Name'), value: 'Ada' });
    const clicked = await call(client, 'click', { sessionId: sid, ref: refOf(snap, 'button', 'Place order') });
    expect(clicked.text).toContain('navigated to ');
    expect(await snapshot()).toContain('Thank you, Ada.');
  });

  it('a never-ending long poll does not hold a click; a click that opens one answers within the cap', async () => {
    const snap = await open('long-poll.html');
    let started = Date.now();
    const note = await call(client, 'click', { sessionId: sid, ref: refOf(snap, 'button', 'Add note') });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(note.text).toContain('page updated');
    expect(await snapshot()).toContain('Note 1');
    started = Date.now();
    const sub = await call(client, 'click', { sessionId: sid, ref: refOf(snap, 'button', 'Subscribe to updates') });
    expect(Date.now() - started).toBeLessThan(6_500);
    expect(sub.text).toContain('still running');
    expect(await snapshot()).toContain('Subscribed');
  });
});
