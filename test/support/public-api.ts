import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { basename, resolve } from 'node:path';
import { networkPolicy, type NetworkPolicy } from '../../lib/browser/network/guard.js';

/**
 * Public JSON APIs, served offline. One loopback HTTPS server answers for every host of
 * the knowledge fixtures (test/fixtures/knowledge/<site>.json) with the documented
 * response of each case, under a certificate for the real host names signed by a test
 * CA (test/fixtures/tls, its private key destroyed after signing). `policy()` is the
 * production guard with three test seams: DNS maps those hosts to a public address, the
 * dial goes to this server, and the test CA is trusted. So recipes run unchanged through
 * the real guardedFetch: TLS, SNI, redirects, caps and refusals included.
 */
const TLS = resolve(import.meta.dirname, '../fixtures/tls');
const FIXTURES = resolve(import.meta.dirname, '../fixtures/knowledge');
export const PUBLIC_API_IP = '93.184.216.40';

export interface StandInResponse {
  status: number;
  contentType?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Holds the answer back this long (timeouts). */
  delayMs?: number;
}

export interface PublicApi {
  port: number;
  /** Full URLs (https://host/path?query) in the order they were requested. */
  requests: string[];
  /** Adds or replaces the answer for one URL. */
  answer(url: string, response: StandInResponse): void;
  /** The guard as production builds it, with the stand-in's DNS, dial and CA seams. */
  policy(): NetworkPolicy;
  close(): Promise<void>;
}

interface FixtureCase {
  request: string;
  response: { status: number; contentType: string; body: unknown };
}

/** Every fixture case's URL → its documented response. */
export function fixtureAnswers(): Map<string, StandInResponse> {
  const table = new Map<string, StandInResponse>();
  for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.json'))) {
    const cases = JSON.parse(readFileSync(resolve(FIXTURES, file), 'utf8')) as FixtureCase[];
    for (const c of cases) table.set(new URL(c.request).href, c.response);
  }
  return table;
}

export const fixtureCase = (
  site: string,
  operation: string,
): FixtureCase & { params: Record<string, unknown>; expect: Record<string, unknown> } => {
  const cases = JSON.parse(readFileSync(resolve(FIXTURES, `${basename(site)}.json`), 'utf8')) as (FixtureCase & {
    operation: string;
    params: Record<string, unknown>;
    expect: Record<string, unknown>;
  })[];
  const found = cases.find((c) => c.operation === operation);
  if (!found) throw new Error(`no fixture case for ${site}/${operation}`);
  return found;
};

export async function startPublicApi(): Promise<PublicApi> {
  const table = fixtureAnswers();
  const requests: string[] = [];
  const server: Server = createServer(
    { key: readFileSync(resolve(TLS, 'server-key.pem')), cert: readFileSync(resolve(TLS, 'server.pem')) },
    (req, res) => {
      const url = new URL(req.url ?? '/', `https://${req.headers.host ?? 'invalid'}`).href;
      requests.push(url);
      const hit = table.get(url);
      if (!hit) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`no stand-in answer for ${url}`);
        return;
      }
      const send = () => {
        res.writeHead(hit.status, { 'content-type': hit.contentType ?? 'application/json', ...hit.headers });
        res.end(hit.body === undefined ? '' : typeof hit.body === 'string' ? hit.body : JSON.stringify(hit.body));
      };
      if (hit.delayMs) setTimeout(send, hit.delayMs).unref();
      else send();
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const ca = readFileSync(resolve(TLS, 'ca.pem'), 'utf8');
  const hosts = new Set([...table.keys()].map((u) => new URL(u).hostname));
  return {
    port,
    requests,
    answer: (url, response) => void table.set(new URL(url).href, response),
    policy: () =>
      networkPolicy(false, async (host) => (hosts.has(host) ? [PUBLIC_API_IP] : ['127.0.0.1']), {
        dial: (address, p) => (address === PUBLIC_API_IP ? { address: '127.0.0.1', port } : { address, port: p }),
        extraCa: ca,
      }),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
