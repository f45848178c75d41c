import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fingerprintFromSeed } from '../../lib/browser/fingerprint.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { call, cliCommand, createSession, newClient, refOf, ROOT } from './helpers.js';

/** Every tool over stdio against the real CLI process and local fixture pages. */
let fx: FixtureServer;
let client: Client;
let sid: string;

beforeAll(async () => {
  fx = await startFixtureServer();
  client = newClient();
  const { command, args } = cliCommand(['--log-level', 'warn', '--allow-private-network']);
  await client.connect(new StdioClientTransport({ command, args, cwd: ROOT, stderr: 'inherit' }));
  sid = await createSession(client);
});

afterAll(async () => {
  await client?.close();
  await fx?.close();
});

describe('MCP tools over stdio', () => {
  it('lists exactly the specified tools, with sessionId on session-bound ones and read-only hints', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'click',
        'content.get_markdown',
        'create_session',
        'extract',
        'extract.page_summary',
        'fill',
        'fill_form',
        'interact',
        'interact.find',
        'knowledge',
        'lookup',
        'navigate',
        'snapshot',
      ].sort(),
    );
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('navigate')?.inputSchema.required).toEqual(expect.arrayContaining(['sessionId', 'url']));
    expect(byName.get('knowledge')?.inputSchema.properties).not.toHaveProperty('sessionId');
    expect(byName.get('snapshot')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('click')?.annotations?.destructiveHint).toBe(true);
  });

  it('navigates, reads markdown and a page summary', async () => {
    const nav = await call(client, 'navigate', { sessionId: sid, url: `${fx.url}/pages/article.html` });
    expect(nav).toMatchObject({ isError: false });
    expect(nav.text).toContain('Title: Tide Pools Guide');
    const md = await call(client, 'content.get_markdown', { sessionId: sid });
    expect(md.text).toContain('# Tide Pools Guide');
    expect(md.text).toContain(`[sea stars](${fx.url}/pages/next.html)`);
    expect(md.text).toContain('| Crab | 5 cm |');
    expect(md.text).not.toContain('Copyright footer');
    const summary = JSON.parse((await call(client, 'extract.page_summary', { sessionId: sid })).text) as {
      description: string;
      headings: { text: string }[];
    };
    expect(summary.description).toBe('A field guide to tide pool animals.');
    expect(summary.headings.map((h) => h.text)).toEqual(['Tide Pools Guide', 'Animals']);
  });

  it('snapshots with contains and roles filters, then clicks a ref to navigate', async () => {
    const full = (await call(client, 'snapshot', { sessionId: sid })).text;
    const links = (await call(client, 'snapshot', { sessionId: sid, roles: ['link'] })).text;
    expect(links).toContain('link "sea stars"');
    expect(links).not.toContain('heading');
    const contains = (await call(client, 'snapshot', { sessionId: sid, contains: 'hermit' })).text;
    expect(contains).toContain('Hermit crab');
    expect(contains).toContain('- main'); // ancestors kept
    expect(contains).not.toContain('Green anemone');
    expect(contains.length).toBeLessThan(full.length);
    const clicked = await call(client, 'click', { sessionId: sid, ref: refOf(links, 'link', 'sea stars') });
    expect(clicked.text).toContain('/pages/next.html');
  });

  it('fills a form field by field and with fill_form, presses keys and submits', async () => {
    await call(client, 'navigate', { sessionId: sid, url: `${fx.url}/pages/form.html` });
    const snap = (await call(client, 'snapshot', { sessionId: sid })).text;
    const name = refOf(snap, 'textbox', 'Full name');
    expect((await call(client, 'fill', { sessionId: sid, ref: name, value: 'Ada' })).isError).toBe(false);
    const form = await call(client, 'fill_form', {
      sessionId: sid,
      fields: [
        { ref: refOf(snap, 'textbox', 'Email'), value: 'ada@example.test' },
        { ref: refOf(snap, 'combobox', 'Country'), value: 'Germany' },
        { ref: refOf(snap, 'checkbox', 'I agree'), value: 'true' },
      ],
    });
    expect(form).toMatchObject({ isError: false });
    await call(client, 'click', { sessionId: sid, ref: refOf(snap, 'button', 'Send message') });
    const status = (await call(client, 'snapshot', { sessionId: sid, roles: ['status'] })).text;
    expect(status).toContain('Thanks Ada <ada@example.test> from de (agreed)');
    await call(client, 'interact', { sessionId: sid, action: 'press', ref: name, key: 'Enter' });
    expect((await call(client, 'snapshot', { sessionId: sid, roles: ['status'] })).text).toContain('Enter pressed');
  });

  it('interacts: hover, uncheck, scroll, back and forward', async () => {
    const snap = (await call(client, 'snapshot', { sessionId: sid })).text;
    await call(client, 'interact', { sessionId: sid, action: 'hover', ref: refOf(snap, 'link', 'Read the guide') });
    expect((await call(client, 'content.get_markdown', { sessionId: sid })).text).toContain('link hovered');
    expect(
      (await call(client, 'interact', { sessionId: sid, action: 'uncheck', ref: refOf(snap, 'checkbox', 'I agree') }))
        .isError,
    ).toBe(false);
    expect((await call(client, 'interact', { sessionId: sid, action: 'scroll', direction: 'down' })).isError).toBe(
      false,
    );
    expect((await call(client, 'interact', { sessionId: sid, action: 'back' })).text).toContain('/pages/next.html');
    expect((await call(client, 'interact', { sessionId: sid, action: 'forward' })).text).toContain('/pages/form.html');
    const missingRef = await call(client, 'interact', { sessionId: sid, action: 'hover' });
    expect(missingRef).toMatchObject({ isError: true, text: expect.stringContaining('needs a ref') });
  });

  it('recovers a stale ref by role and name, and explains when it cannot', async () => {
    const snap = (await call(client, 'snapshot', { sessionId: sid })).text;
    const save = refOf(snap, 'button', 'Save draft');
    await call(client, 'click', { sessionId: sid, ref: refOf(snap, 'button', 'Rerender') });
    const recovered = await call(client, 'click', { sessionId: sid, ref: save });
    expect(recovered.isError).toBe(false);
    expect((await call(client, 'snapshot', { sessionId: sid, roles: ['status'] })).text).toContain('Saved 1');
    await call(client, 'click', { sessionId: sid, ref: refOf(snap, 'button', 'Remove draft button') });
    const gone = await call(client, 'click', { sessionId: sid, ref: save });
    expect(gone.isError).toBe(true);
    expect(gone.text).toMatch(/stale.*snapshot.*interact\.find/s);
  });

  it('finds elements by description with interact.find', async () => {
    const found = await call(client, 'interact.find', { sessionId: sid, query: 'send message button' });
    expect(found.text.split('\n')[0]).toMatch(/\[ref=[a-z0-9]+\] button "Send message"/);
  });

  it('extracts data matching a JSON Schema without a model', async () => {
    await call(client, 'navigate', { sessionId: sid, url: `${fx.url}/pages/products.html` });
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        price: { type: 'number' },
        battery: { type: 'string' },
        warranty: { type: 'string' },
        lamps: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, price: { type: 'number' }, inStock: { type: 'boolean' } },
          },
        },
        tags: { type: 'array', items: { type: 'string' } },
      },
    };
    const out = JSON.parse((await call(client, 'extract', { sessionId: sid, schema })).text) as Record<string, unknown>;
    expect(out).toEqual({
      name: 'Trail Lamp',
      price: 49.9,
      battery: '12 hours',
      warranty: '2 years',
      lamps: [
        { name: 'Camp Lantern', price: 19.5, inStock: true },
        { name: 'Head Torch', price: 1029, inStock: false },
      ],
      tags: ['outdoor', 'light', 'camping'],
    });
    const people = JSON.parse(
      (
        await call(client, 'extract', {
          sessionId: sid,
          schema: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' }, jobTitle: { type: 'string' } } },
          },
        })
      ).text,
    );
    expect(people).toEqual([{ name: 'Lena Ortiz', jobTitle: 'Designer' }]);
  });

  it('answers knowledge queries by domain and by goal', async () => {
    type Sites = { sites: { site: string; operations: string[] }[] };
    const gh = await call(client, 'knowledge', { query: 'github.com' });
    expect((gh.structured as Sites | undefined)?.sites[0]?.site).toBe('github');
    expect(gh.text).toContain('GitHub');
    const weather = await call(client, 'knowledge', { query: 'weather forecast for Lyon' });
    expect((weather.structured as Sites | undefined)?.sites[0]).toMatchObject({
      site: 'open-meteo',
      operations: expect.arrayContaining(['forecast']),
    });
  });

  it('applies a fingerprint seed deterministically', async () => {
    const seeded = await createSession(client, { fingerprint: 'seed-42' });
    await call(client, 'navigate', { sessionId: seeded, url: `${fx.url}/pages/fingerprint.html` });
    const text = (await call(client, 'content.get_markdown', { sessionId: seeded })).text;
    const fp = fingerprintFromSeed('seed-42');
    expect(text).toContain(`ua=${fp.userAgent}`);
    expect(text).toContain(`tz=${fp.timezoneId}`);
    expect(text).toContain(`lang=${fp.locale}`);
    expect(text).toContain(`width=${fp.viewport.width}`);
    expect(text).toContain(`platform=${fp.platform}`);
    expect(text).toContain(`cores=${fp.hardwareConcurrency}`);
  });

  it('returns bad arguments and unknown sessions as readable tool errors', async () => {
    const badUrl = await call(client, 'navigate', { sessionId: sid, url: 'not a url' });
    expect(badUrl.isError).toBe(true);
    expect(badUrl.text).toMatch(/url/i);
    const unknown = await call(client, 'snapshot', { sessionId: 's_doesnotexist' });
    expect(unknown).toMatchObject({ isError: true, text: expect.stringContaining('create_session') });
    const badRef = await call(client, 'click', { sessionId: sid, ref: 'e999999' });
    expect(badRef).toMatchObject({ isError: true, text: expect.stringContaining('snapshot') });
    const badSchema = await call(client, 'extract', { sessionId: sid, schema: { properties: 'nope' } });
    expect(badSchema).toMatchObject({ isError: true, text: expect.stringContaining('Invalid schema') });
  });
});
