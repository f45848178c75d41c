import type { ServerResponse } from 'node:http';
import type { DynamicRoute } from './fixture-server.js';

/**
 * Server behaviour the settle fixtures (test/fixtures/pages/settle/) need: answers that
 * take a while, and a long poll that never answers. Shared by the browser and MCP tiers
 * and by bench:mcp.
 *
 * - GET  /slow/data?ms=N&what=W  JSON `{ items }` after N ms
 * - POST /slow/submit?ms=N       an HTML page naming the posted `name`, after N ms
 * - GET  /slow/page?ms=N          an HTML page after N ms (a navigation that takes a while)
 * - GET  /slow/never             held open until `release()`
 * - POST /slow/beacon            204 at once
 */
export interface SlowRoutes {
  routes: DynamicRoute[];
  /** Requests to /slow/never currently held open. */
  held(): number;
  /** Ends every held response, so the fixture server can close. */
  release(): void;
}

const ITEMS: Record<string, string[]> = {
  orders: ['Order 1001: lamp', 'Order 1002: tent', 'Order 1003: stove'],
  total: ['€184.50'],
};

const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function slowRoutes(): SlowRoutes {
  const held = new Set<ServerResponse>();
  const delayed = (ms: number, fn: () => void): void => void setTimeout(fn, Math.min(Math.max(ms, 0), 10_000));
  const route: DynamicRoute = async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const ms = Number(url.searchParams.get('ms') ?? 0);
    switch (url.pathname) {
      case '/slow/data':
        delayed(ms, () =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ items: ITEMS[url.searchParams.get('what') ?? ''] ?? [] })),
        );
        return true;
      case '/slow/submit': {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const name = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('name') ?? '';
        delayed(ms, () =>
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(
              `<!doctype html><title>Order received</title><main><h1>Order received</h1><p>Thank you, ${escapeHtml(name)}.</p></main>`,
            ),
        );
        return true;
      }
      case '/slow/page':
        delayed(ms, () =>
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(`<!doctype html><title>Slow page</title><main><h1>Worth the wait</h1></main>`),
        );
        return true;
      case '/slow/never':
        // Like a long poll with nothing to say: not even headers until released.
        held.add(res);
        res.on('close', () => held.delete(res));
        return true;
      case '/slow/beacon':
        req.resume();
        res.writeHead(204).end();
        return true;
      default:
        return false;
    }
  };
  return {
    routes: [route],
    held: () => held.size,
    release() {
      for (const res of held) res.writeHead(204).end();
      held.clear();
    },
  };
}
