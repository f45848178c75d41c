import { readdirSync, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { KnowledgeIndex } from '../../../lib/knowledge/index.js';
import { type HttpGet, LOOKUP_MAX_BYTES, LOOKUP_TIMEOUT_MS, runLookup } from '../../../lib/knowledge/recipes.js';

/**
 * Every recipe of the shipped index, run offline. Each fixture case holds the params, the
 * URL the recipe must request, a response in the API's documented shape, and the fields
 * expected from it. The harness's HTTP port is a forward proxy: it sends the recipe's
 * real URL (absolute form, original Host) to a loopback server that answers by host and
 * path, so recipe URLs are exercised unchanged and no request leaves the machine.
 */
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/knowledge');
const INDEX_DIR = resolve(import.meta.dirname, '../../../data/knowledgegraphindex');

const CaseSchema = z.strictObject({
  operation: z.string().min(1),
  params: z.record(z.string(), z.unknown()),
  request: z.string().startsWith('https://'),
  response: z.strictObject({ status: z.number().int(), contentType: z.string(), body: z.unknown() }),
  expect: z.record(z.string(), z.unknown()),
});
type Case = z.infer<typeof CaseSchema> & { site: string };

const cases: Case[] = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .flatMap((f) =>
    z
      .array(CaseSchema)
      .min(1)
      .parse(JSON.parse(readFileSync(resolve(FIXTURES, f), 'utf8')))
      .map((c) => ({ ...c, site: basename(f, '.json') })),
  );

/** Loopback server answering proxy-style requests (`GET https://host/path`) from the fixture table. */
async function startUpstreams(
  table: Map<string, Case['response']>,
): Promise<{ server: Server; port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://invalid');
    // The Host header must name the real API, as it would through a real forward proxy.
    if (target.host !== req.headers.host) {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end(`host mismatch: ${req.headers.host ?? ''} vs ${target.host}`);
      return;
    }
    seen.push(target.href);
    const hit = table.get(target.href);
    if (!hit) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no fixture for ${target.href}`);
      return;
    }
    res.writeHead(hit.status, { 'content-type': hit.contentType });
    res.end(typeof hit.body === 'string' ? hit.body : JSON.stringify(hit.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

/** The test's HTTP port: forwards the recipe URL to the fixture server, honouring the limits it is given. */
function proxyPort(port: number, calls: { url: string; timeoutMs: number; maxBytes: number }[]): HttpGet {
  return (url, opts) =>
    new Promise((resolvePromise, reject) => {
      calls.push({ url, ...opts });
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'GET',
          path: url,
          headers: { host: new URL(url).host },
          timeout: opts.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            chunks.push(c);
            if (size > opts.maxBytes) {
              res.destroy();
              reject(new Error(`response exceeds ${opts.maxBytes} bytes`));
            }
          });
          res.on('end', () =>
            resolvePromise({
              status: res.statusCode ?? 0,
              url,
              contentType: String(res.headers['content-type'] ?? ''),
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end();
    });
}

let index: KnowledgeIndex;
let upstream: Awaited<ReturnType<typeof startUpstreams>>;
const calls: { url: string; timeoutMs: number; maxBytes: number }[] = [];
let http: HttpGet;

beforeAll(async () => {
  index = await KnowledgeIndex.load(INDEX_DIR);
  const table = new Map<string, Case['response']>();
  for (const c of cases) {
    const key = new URL(c.request).href;
    if (table.has(key)) throw new Error(`Two fixture cases request ${key}`);
    table.set(key, c.response);
  }
  upstream = await startUpstreams(table);
  http = proxyPort(upstream.port, calls);
});

afterAll(async () => {
  if (upstream) await new Promise<void>((r) => upstream.server.close(() => r()));
});

describe('recipe fixtures', () => {
  it('cover every operation of the shipped index, and name only real ones', () => {
    // Prepare
    const declared = index.entries.flatMap((e) => e.lookups.map((op) => `${e.site}/${op.name}`));
    const exercised = new Set(cases.map((c) => `${c.site}/${c.operation}`));
    // Assess
    expect(declared.filter((id) => !exercised.has(id))).toEqual([]);
    expect([...exercised].filter((id) => !declared.includes(id))).toEqual([]);
  });
});

describe.each(cases.map((c) => [`${c.site}/${c.operation} ${JSON.stringify(c.params)}`, c] as const))(
  'recipe %s',
  (_label, c) => {
    it('requests the documented URL through the port and maps the declared fields', async () => {
      // Act
      const result = await runLookup(index, { site: c.site, operation: c.operation, params: c.params }, http);
      // Assess
      expect(result.url).toBe(c.request);
      expect(upstream.seen).toContain(new URL(c.request).href);
      expect(calls.find((call) => call.url === c.request)).toMatchObject({
        timeoutMs: LOOKUP_TIMEOUT_MS,
        maxBytes: LOOKUP_MAX_BYTES,
      });
      expect(result).toMatchObject({ site: c.site, operation: c.operation });
      expect(result.fields).toEqual(c.expect);
    });
  },
);

describe('upstream failures through the harness', () => {
  it('reports a non-2xx status as a sentence naming the URL and status', async () => {
    // Act: a package with no fixture makes the upstream answer 404.
    const attempt = runLookup(
      index,
      { site: 'npm', operation: 'package', params: { name: 'no-such-package-xyz' } },
      http,
    );
    // Assess
    await expect(attempt).rejects.toThrow(
      'npm/package: https://registry.npmjs.org/no-such-package-xyz/latest answered HTTP 404 (nothing exists for these parameters).',
    );
  });

  it('passes a smaller size cap to the port, which refuses a larger body', async () => {
    // Act
    const attempt = runLookup(index, { site: 'npm', operation: 'package', params: { name: 'express' } }, http, {
      maxBytes: 50,
    });
    // Assess
    await expect(attempt).rejects.toThrow(
      /npm\/package: calling https:\/\/registry\.npmjs\.org\/express\/latest failed \(response exceeds 50 bytes\)/,
    );
  });
});
