import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guardedTextGet } from '../../../lib/browser/network/fetch.js';
import { KnowledgeIndex } from '../../../lib/knowledge/index.js';
import { checkLookup, runLookup } from '../../../lib/knowledge/recipes.js';
import { fixtureCase, startPublicApi, type PublicApi } from '../../support/public-api.js';

/**
 * Recipes of the shipped index through the production HTTP port (guardedTextGet over
 * guardedFetch): real TLS to a stand-in for the public API, and the guard judging every
 * hop. A loopback canary must receive nothing, whatever the endpoint answers.
 */
let index: KnowledgeIndex;
let api: PublicApi;
let canary: Server;
const canaryHits: string[] = [];
const canaryUrl = (): string => `http://127.0.0.1:${(canary.address() as AddressInfo).port}/latest`;

beforeAll(async () => {
  index = await KnowledgeIndex.load(resolve(import.meta.dirname, '../../../data/knowledgegraphindex'));
  api = await startPublicApi();
  canary = createServer((req, res) => {
    canaryHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"stolen"}');
  });
  await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
});

afterAll(async () => {
  await api?.close();
  await new Promise<void>((r) => (canary ? canary.close(() => r()) : r()));
});

beforeEach(() => {
  canaryHits.length = 0;
});

describe('lookup recipes through the network guard', () => {
  it('calls the public endpoint over TLS and maps the documented response', async () => {
    const c = fixtureCase('npm', 'package');
    const visited: string[] = [];
    const result = await runLookup(
      index,
      { site: 'npm', operation: 'package', params: c.params },
      guardedTextGet(api.policy(), { onFetched: (u) => visited.push(u) }),
    );
    expect(result.url).toBe(c.request);
    expect(result.fields).toEqual(c.expect);
    expect(visited).toEqual([c.request]);
  });

  it('refuses a redirect into a private address: the canary receives nothing', async () => {
    api.answer('https://registry.npmjs.org/left-pad/latest', { status: 302, headers: { location: canaryUrl() } });
    const get = guardedTextGet(api.policy());
    await expect(
      runLookup(index, { site: 'npm', operation: 'package', params: { name: 'left-pad' } }, get),
    ).rejects.toThrow(/Refused to (load|fetch) http:\/\/127\.0\.0\.1/);
    expect(canaryHits).toEqual([]);
  });

  it('stops a response over the size cap', async () => {
    api.answer('https://registry.npmjs.org/huge/latest', {
      status: 200,
      body: { name: 'huge', version: '1.0.0', description: 'x'.repeat(300_000) },
    });
    await expect(
      runLookup(index, { site: 'npm', operation: 'package', params: { name: 'huge' } }, guardedTextGet(api.policy()), {
        maxBytes: 100_000,
      }),
    ).rejects.toThrow(/100000 bytes|larger than|too large/i);
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    api.answer('https://registry.npmjs.org/slow/latest', { status: 200, body: { name: 'slow' }, delayMs: 5_000 });
    const started = Date.now();
    await expect(
      runLookup(index, { site: 'npm', operation: 'package', params: { name: 'slow' } }, guardedTextGet(api.policy()), {
        timeoutMs: 300,
      }),
    ).rejects.toThrow(/longer than 300 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('says what an endpoint error means', async () => {
    await expect(
      runLookup(
        index,
        { site: 'npm', operation: 'package', params: { name: 'no-such-package-here' } },
        guardedTextGet(api.policy()),
      ),
    ).rejects.toThrow(/answered HTTP 404 \(nothing exists for these parameters\)/);
  });

  it('checks a request without calling anything: unknown site, unknown operation, bad params', () => {
    expect(checkLookup(index, { site: 'npm', operation: 'package', params: { name: 'zod' } })).toBe(
      'https://registry.npmjs.org/zod/latest',
    );
    expect(() => checkLookup(index, { site: 'nmp', operation: 'package', params: {} })).toThrow(/Unknown site "nmp"/);
    expect(() => checkLookup(index, { site: 'npm', operation: 'pkg', params: {} })).toThrow(
      /Valid operations: "package"/,
    );
    expect(() => checkLookup(index, { site: 'npm', operation: 'package', params: { nom: 'zod' } })).toThrow(
      /Invalid params for npm\/package/,
    );
    expect(api.requests.filter((u) => u.includes('/zod/'))).toEqual([]);
  });
});
