import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROUTES, matchRoute } from '../http/routes.js';
import { MAX_BODY_BYTES, type ApiLambda } from '../http/api-handler.js';
import { lambdaContext, toApiGatewayEvent } from './lambda-adapter.js';

const FALLBACK = 'method-not-allowed';

const decode = (v: string): string => {
  try {
    return decodeURIComponent(v);
  } catch {
    return v; // malformed escapes are passed through; the handler then answers 4xx
  }
};

/**
 * The dev server: HTTP in, API Gateway v2 event to the very same Lambda handler, HTTP out.
 * Routing mirrors the HTTP API: a route per table entry, `$default` to the fallback.
 */
export async function startApiServer(opts: {
  port: number;
  host: string;
  handlers: Record<string, ApiLambda>;
}): Promise<{ server: Server; url: string }> {
  const missing = ROUTES.filter((r) => !opts.handlers[r.handler]);
  if (missing.length) throw new Error(`No handler for ${missing.map((r) => r.handler).join(', ')}`);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      // Keep one byte past the limit so the handler can answer 413; drop the rest.
      if (size <= MAX_BODY_BYTES) chunks.push(c);
      size += c.length;
    });
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = new URL(req.url ?? '/', 'http://local').pathname;
        const match = matchRoute(req.method ?? 'GET', path);
        const name = match.kind === 'found' ? match.route.handler : FALLBACK;
        const routeKey = match.kind === 'found' ? `${match.route.method} ${match.route.path}` : '$default';
        const params =
          match.kind === 'found' && Object.keys(match.pathParameters).length
            ? Object.fromEntries(Object.entries(match.pathParameters).map(([k, v]) => [k, decode(v)]))
            : undefined;
        const event = toApiGatewayEvent(req, body, routeKey, params);
        try {
          const out = await (opts.handlers[name] as ApiLambda)(event, lambdaContext(name));
          res.writeHead(out.statusCode ?? 200, out.headers as Record<string, string>);
          res.end(out.body ?? '');
        } catch (err) {
          // Handlers map their own errors; reaching here is a bug in the adapter itself.
          console.error('local server: handler crashed', err);
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'Internal server error' }));
        }
      })();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://${opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host}:${port}` };
}
