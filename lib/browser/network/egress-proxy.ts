import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkUrl, dialTarget, type NetworkPolicy } from './guard.js';

/** Called for every connection the proxy refused, with the guard's sentence. */
export type RefusalListener = (reason: string) => void;

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for a browser context's `proxy.server`. */
  server: string;
  close(): Promise<void>;
}

/** Request headers that belong to one hop, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const REFUSED_BODY = 'Refused by the network policy of the browser task service';

/** Judges `url` and answers where to connect, or undefined after telling the listener why not. */
async function approve(
  policy: NetworkPolicy,
  url: string,
  onRefusal: RefusalListener,
): Promise<{ address: string; port: number } | undefined> {
  const verdict = await checkUrl(policy, url);
  if (!verdict.allowed) {
    onRefusal(verdict.reason);
    return undefined;
  }
  const parsed = new URL(url);
  const address = verdict.addresses[0];
  if (!address) return undefined;
  return dialTarget(
    policy,
    address,
    Number(parsed.port || (parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? 443 : 80)),
  );
}

/** Plain-HTTP requests arrive in absolute form (`GET http://host/path`). */
async function forward(
  policy: NetworkPolicy,
  onRefusal: RefusalListener,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = req.url ?? '';
  const target = /^http:\/\//i.test(url) ? await approve(policy, url, onRefusal) : undefined;
  if (!target) {
    res.writeHead(403, { 'content-type': 'text/plain' }).end(REFUSED_BODY);
    return;
  }
  const parsed = new URL(url);
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase())));
  const upstream = httpRequest(
    {
      host: target.address,
      port: target.port,
      method: req.method,
      path: `${parsed.pathname}${parsed.search}`,
      headers: { ...headers, host: parsed.host },
    },
    (answer) => {
      const out = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase())));
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end();
  });
  // The browser gave up (context closed, navigation cancelled): so does the upstream request.
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

/** HTTPS and WebSocket traffic arrives as `CONNECT host:port`; the tunnel goes only to an approved address. */
async function tunnel(
  policy: NetworkPolicy,
  onRefusal: RefusalListener,
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
  open: Set<Duplex>,
): Promise<void> {
  const target = await approve(policy, `https://${req.url ?? ''}/`, onRefusal);
  if (!target) {
    client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
    return;
  }
  const upstream: Socket = connect(target.port, target.address, () => {
    open.add(upstream);
    open.add(client);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  const drop = () => {
    upstream.destroy();
    client.destroy();
  };
  upstream.on('error', () => {
    if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
  });
  client.on('error', drop);
  client.on('close', () => {
    upstream.destroy();
    open.delete(upstream);
    open.delete(client);
  });
}

/**
 * A forward proxy on loopback that a guarded browser context sends all its traffic
 * through. The browser's route guard only sees the first URL of a redirect chain, and
 * Chromium resolves names on its own; here every connection, each redirect hop and
 * WebSocket included, is judged by the network guard and dialled to the very address
 * that was judged, so neither a redirect into a private address nor a DNS answer that
 * changes between check and connect can reach our network.
 */
export async function startEgressProxy(
  policy: NetworkPolicy,
  onRefusal: RefusalListener = () => undefined,
): Promise<EgressProxy> {
  // Tunnels leave the HTTP server's bookkeeping once established; closing must end them too.
  const tunnels = new Set<Duplex>();
  const server: Server = createServer((req, res) => void forward(policy, onRefusal, req, res));
  server.on(
    'connect',
    (req: IncomingMessage, socket: Duplex, head: Buffer) => void tunnel(policy, onRefusal, req, socket, head, tunnels),
  );
  // A plain ws:// upgrade without CONNECT is not something Chromium sends through a proxy; refuse it.
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) =>
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n'),
  );
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const t of tunnels) t.destroy();
      }),
  };
}
