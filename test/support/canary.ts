import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DynamicRoute } from './fixture-server.js';

/**
 * A loopback HTTP server that nothing under the network guard may reach: every request,
 * websocket upgrade and bare TCP connection it receives is recorded, and a test fails if
 * the list is not empty. Stands for the operator's internal network (metadata service,
 * databases, admin panels).
 */
export interface Canary {
  port: number;
  /** `GET /img.png`, `UPGRADE /ws`, … in arrival order. */
  requests: string[];
  /** TCP connections accepted, with or without a request (a preconnect opens one). */
  connections(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const requests: string[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('canary');
  });
  server.on('upgrade', (req, socket) => {
    requests.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    connections: () => connections,
    reset() {
      requests.length = 0;
      connections = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * Fixture routes of a page that tries every way out to the canary on 127.0.0.1: the page
 * itself is served under a host name the test resolver maps to a public address, so the
 * guard lets it load.
 */
export function hostileRoutes(canaryPort: () => number): DynamicRoute[] {
  return [
    (req, res) => {
      const c = `http://127.0.0.1:${canaryPort()}`;
      switch (new URL(req.url ?? '/', 'http://x').pathname) {
        case '/hostile':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostilePage(c, canaryPort()));
          return true;
        case '/sw.js':
          res
            .writeHead(200, { 'content-type': 'text/javascript' })
            .end(
              `self.addEventListener('install', (e) => e.waitUntil(fetch('${c}/from-service-worker').catch(() => {})));`,
            );
          return true;
        case '/hop':
          res.writeHead(302, { location: `${c}/after-redirect` }).end();
          return true;
        case '/hop-img':
          res.writeHead(302, { location: `${c}/after-redirect.png` }).end();
          return true;
        case '/redirecting-page':
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end('<title>Redirecting image</title><img src="/hop-img"><p>an image that redirects</p>');
          return true;
        default:
          return false;
      }
    },
  ];
}

function hostilePage(c: string, port: number): string {
  return `<!doctype html><html><head><title>Hostile page</title>
<link rel="stylesheet" href="${c}/style.css">
<link rel="preconnect" href="${c}">
<link rel="prefetch" href="${c}/prefetch">
<script src="${c}/script.js"></script>
</head><body><main>
<h1>Hostile page</h1>
<img src="${c}/img.png" alt="direct">
<img src="http://[::ffff:127.0.0.1]:${port}/mapped.png" alt="ipv4-mapped">
<img src="http://2130706433:${port}/decimal.png" alt="decimal">
<iframe src="${c}/frame" title="frame"></iframe>
<a href="${c}/report.zip" download>Download report</a>
<a href="${c}/popup" target="_blank">Open in new tab</a>
<form action="${c}/post" method="post"><input name="q" value="x" aria-label="Query"><button type="submit">Send form</button></form>
<p id="log" role="status">pending</p>
</main>
<script>
const out = {};
const note = (k, v) => { out[k] = v; document.getElementById('log').textContent = Object.entries(out).map(([a, b]) => a + ': ' + b).join('; ') + (Object.keys(out).length >= 5 ? '; all tried' : ''); };
fetch('${c}/fetch').then(() => note('fetch', 'reached'), () => note('fetch', 'blocked'));
const x = new XMLHttpRequest(); x.open('GET', '${c}/xhr'); x.onload = () => note('xhr', 'reached'); x.onerror = () => note('xhr', 'blocked'); x.send();
const ws = new WebSocket('ws://127.0.0.1:${port}/ws'); ws.onopen = () => note('ws', 'open'); ws.onclose = (e) => note('ws', 'closed ' + e.code);
navigator.sendBeacon('${c}/beacon', 'x');
const es = new EventSource('${c}/sse'); es.onopen = () => note('sse', 'open'); es.onerror = () => { note('sse', 'blocked'); es.close(); };
// A registration that resolves without a registration object did not register anything.
navigator.serviceWorker.register('/sw.js').then((r) => note('sw', r ? 'registered' : 'refused'), () => note('sw', 'refused'));
</script></body></html>`;
}
