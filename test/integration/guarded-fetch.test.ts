import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEgressProxy } from '../../lib/browser/network/egress-proxy.js';
import { guardedFetch } from '../../lib/browser/network/fetch.js';
import { networkPolicy, type Resolver } from '../../lib/browser/network/guard.js';
import { NetworkRefusedError, ResponseTooLargeError } from '../../lib/errors.js';

/**
 * The Node side of the network guard: guardedFetch (assets, stylesheets, lookups) and the
 * egress proxy browsers send their traffic through. `public.example` resolves to a public
 * address that the dial seam routes to the loopback server; 127.0.0.1 itself is refused.
 */
const PUBLIC = '93.184.216.34';
let server: Server;
const hits: string[] = [];
const port = (): number => (server.address() as AddressInfo).port;
const resolve: Resolver = async (host) => (host === 'public.example' ? [PUBLIC] : ['127.0.0.1']);
const guarded = networkPolicy(false, resolve, {
  dial: (a, p) => ({ address: a === PUBLIC ? '127.0.0.1' : a, port: p }),
});
const pub = (path: string): string => `http://public.example:${port()}${path}`;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const path = req.url ?? '/';
    if (path === '/ok') res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    else if (path === '/hop') res.writeHead(302, { location: pub('/ok') }).end();
    else if (path === '/to-private') res.writeHead(302, { location: `http://127.0.0.1:${port()}/secret` }).end();
    else if (path === '/big') res.writeHead(200).end(Buffer.alloc(64 * 1024, 1));
    else if (path === '/bomb')
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(8 * 1024 * 1024, 0)));
    else if (path === '/never')
      res.writeHead(200); // headers only, the body never ends
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('guardedFetch', () => {
  it('follows allowed redirects and reports the final URL', async () => {
    const res = await guardedFetch(guarded, pub('/hop'), { timeoutMs: 5_000, maxBytes: 1024 });
    expect(res).toMatchObject({ status: 200, url: pub('/ok') });
    expect(res.body.toString()).toBe('hello');
  });

  it('refuses a redirect hop into a private address before sending it', async () => {
    hits.length = 0;
    await expect(guardedFetch(guarded, pub('/to-private'), { timeoutMs: 5_000, maxBytes: 1024 })).rejects.toThrow(
      NetworkRefusedError,
    );
    expect(hits).toEqual(['/to-private']);
  });

  it('caps the body, compressed bombs included', async () => {
    await expect(guardedFetch(guarded, pub('/big'), { timeoutMs: 5_000, maxBytes: 1024 })).rejects.toThrow(
      ResponseTooLargeError,
    );
    await expect(guardedFetch(guarded, pub('/bomb'), { timeoutMs: 5_000, maxBytes: 1024 * 1024 })).rejects.toThrow(
      ResponseTooLargeError,
    );
  });

  it('gives up at its deadline on a body that never ends', async () => {
    const started = Date.now();
    await expect(guardedFetch(guarded, pub('/never'), { timeoutMs: 500, maxBytes: 1024 })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('connects to the address it judged, whatever a second DNS answer says', async () => {
    let calls = 0;
    // A rebinding resolver: public first, loopback on every later question.
    const rebinding: Resolver = async () => (calls++ === 0 ? [PUBLIC] : ['127.0.0.1']);
    const policy = networkPolicy(false, rebinding, {
      dial: (a, p) => ({ address: a === PUBLIC ? '127.0.0.1' : a, port: p }),
    });
    const res = await guardedFetch(policy, `http://rebind.example:${port()}/ok`, { timeoutMs: 5_000, maxBytes: 1024 });
    expect(res.status).toBe(200);
    expect(calls).toBe(1);
  });
});

describe('egress proxy', () => {
  const viaProxy = (proxy: string, target: string): Promise<number> =>
    new Promise((resolveStatus, reject) => {
      const p = new URL(proxy);
      const req = request({ host: p.hostname, port: p.port, path: target, method: 'GET' }, (res) => {
        res.resume();
        resolveStatus(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
  const connectStatus = (proxy: string, authority: string): Promise<string> =>
    new Promise((resolveLine, reject) => {
      const p = new URL(proxy);
      const socket = connect(Number(p.port), p.hostname, () =>
        socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n\r\n`),
      );
      socket.once('data', (d) => {
        resolveLine(d.toString().split('\r\n')[0] ?? '');
        socket.destroy();
      });
      socket.on('error', reject);
    });

  it('forwards allowed requests and refuses private ones, plain and tunnelled', async () => {
    const refusals: string[] = [];
    const proxy = await startEgressProxy(guarded, (r) => refusals.push(r));
    try {
      hits.length = 0;
      expect(await viaProxy(proxy.server, pub('/ok'))).toBe(200);
      expect(await viaProxy(proxy.server, `http://127.0.0.1:${port()}/secret`)).toBe(403);
      expect(await connectStatus(proxy.server, `127.0.0.1:${port()}`)).toMatch(/ 403 /);
      expect(await connectStatus(proxy.server, `public.example:${port()}`)).toMatch(/ 200 /);
      expect(hits).toEqual(['/ok']);
      expect(refusals).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  it('refuses the service’s own local ports even where private networks are allowed', async () => {
    const local = networkPolicy(true, resolve, { refusedLocalPorts: new Set([port()]) });
    const proxy = await startEgressProxy(local);
    try {
      hits.length = 0;
      expect(await viaProxy(proxy.server, `http://127.0.0.1:${port()}/ok`)).toBe(403);
      expect(hits).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
