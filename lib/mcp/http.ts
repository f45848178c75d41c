import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Authenticator } from './auth.js';
import type { Logger } from './log.js';
import { corsHeaders, isOriginAllowed, LOOPBACK_HOSTS, originPolicy, preflightHeaders } from './origin.js';
import { createToolServer, type ToolServer, type ToolServerDeps } from './server.js';

/**
 * Streamable HTTP: `POST/GET/DELETE /mcp` and `GET /health`. Each initialize opens an
 * MCP session with its own tool server (and so its own browser sessions), bound to the
 * identity that opened it. Safe to host for many tenants: browser origins are checked
 * (origin.ts), each identity holds a bounded number of MCP sessions, and an initialize
 * that is refused leaves nothing behind (no tool server, no registry, no timer).
 */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

interface McpSession {
  transport: StreamableHTTPServerTransport;
  tools: ToolServer;
  identity: string;
  lastSeen: number;
}

export interface HttpServerOptions {
  host: string;
  port: number;
  auth: Authenticator;
  deps: ToolServerDeps;
  log: Logger;
  /** Open MCP sessions per identity (--max-mcp-sessions-per-key). */
  maxSessionsPerIdentity: number;
  /** Browser origins allowed besides loopback ones on a loopback bind (--allowed-origins). */
  allowedOrigins: readonly string[];
}

export interface RunningHttpServer {
  url: string;
  port: number;
  sessionCount(): number;
  /** Tool servers alive (each with its browser-session registry): one per open MCP session, none for a refused one. */
  toolServerCount(): number;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function rpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): void {
  send(res, status, { jsonrpc: '2.0', error: { code: -32000, message }, id }, headers);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError('body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** The JSON-RPC id of a request body, so a refusal answers the request it refuses. */
function requestId(body: unknown): string | number | null {
  const id: unknown = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Host without port; IPv6 literals keep their brackets. */
export function hostName(hostHeader: string | undefined): string {
  const h = (hostHeader ?? '').toLowerCase();
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : (h.split(':')[0] ?? '');
}

export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const sessions = new Map<string, McpSession>();
  const live = new Set<ToolServer>();
  /** Initializes under way per identity: they count against the cap before they finish. */
  const opening = new Map<string, number>();
  // DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends its own Host.
  const checkHost = LOOPBACK_HOSTS.has(opts.host);
  const origins = originPolicy(opts.host, opts.allowedOrigins);

  const closeTools = async (tools: ToolServer): Promise<void> => {
    live.delete(tools);
    await tools.close();
  };
  const closeSession = async (id: string): Promise<void> => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await closeTools(s.tools);
  };
  const held = (identity: string): number => {
    let n = opening.get(identity) ?? 0;
    for (const s of sessions.values()) if (s.identity === identity) n++;
    return n;
  };
  const capMessage = (identity: string): string =>
    `${identity === 'anonymous' ? 'This server (auth mode none: every client is one identity)' : 'This API key'} already has ${opts.maxSessionsPerIdentity} open MCP sessions, ` +
    `the most this server allows (--max-mcp-sessions-per-key). End one with DELETE /mcp and its mcp-session-id, ` +
    `or wait: sessions unused for ${Math.round(opts.deps.idleTimeoutMs / 60_000)} min close themselves.`;

  async function initialize(req: IncomingMessage, res: ServerResponse, identity: string): Promise<void> {
    const body = await readJson(req);
    if (!isInitializeRequest(body)) return rpcError(res, 400, 'The first request of a session must be initialize');
    if (held(identity) >= opts.maxSessionsPerIdentity) {
      opts.log.warn(`refused an MCP session for ${identity}: ${opts.maxSessionsPerIdentity} already open`);
      return rpcError(res, 429, capMessage(identity), {}, requestId(body));
    }
    opening.set(identity, (opening.get(identity) ?? 0) + 1);
    const tools = createToolServer(opts.deps, identity);
    live.add(tools);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, tools, identity, lastSeen: Date.now() });
        opts.log.info(`MCP session ${id} opened`);
      },
      onsessionclosed: (id) => void closeSession(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) void closeSession(transport.sessionId);
    };
    try {
      await tools.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      const n = (opening.get(identity) ?? 1) - 1;
      if (n > 0) opening.set(identity, n);
      else opening.delete(identity);
      // The transport refused the initialize (bad Accept header, bad version…) or it failed: nothing may stay behind.
      if (!transport.sessionId || !sessions.has(transport.sessionId)) await closeTools(tools);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/health') {
      if (req.method !== 'GET') return send(res, 405, { error: 'Method not allowed' }, { allow: 'GET' });
      // Nothing but liveness: session counts would tell every caller how busy other tenants are.
      return send(res, 200, { status: 'ok' });
    }
    if (path !== '/mcp') return send(res, 404, { error: 'Not found' });
    if (checkHost && !LOOPBACK_HOSTS.has(hostName(req.headers.host)))
      return rpcError(res, 403, `Host ${req.headers.host ?? '(none)'} is not allowed`);
    const origin = req.headers.origin;
    if (!isOriginAllowed(origins, origin)) {
      return rpcError(
        res,
        403,
        `Origin ${origin ?? ''} is not allowed to call this server; its operator can allow it with --allowed-origins`,
      );
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, origin ? preflightHeaders(origin) : { allow: 'GET, POST, DELETE, OPTIONS' }).end();
      return;
    }
    for (const [k, v] of Object.entries(corsHeaders(origin))) res.setHeader(k, v);
    const identity = await opts.auth.authenticate(req.headers.authorization);
    if (!identity) return rpcError(res, 401, 'Missing, unknown or revoked API key', { 'www-authenticate': 'Bearer' });

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const s = sessions.get(sessionId);
      // Another key's session id is answered like an unknown one: no hint it exists.
      if (!s || s.identity !== identity) return rpcError(res, 404, 'Unknown MCP session');
      s.lastSeen = Date.now();
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      return s.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') return rpcError(res, 400, 'Missing mcp-session-id header');
    return initialize(req, res, identity);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const tooLarge = err instanceof RangeError;
      opts.log[tooLarge || err instanceof SyntaxError ? 'warn' : 'error'](
        `HTTP ${req.method} ${req.url}: ${(err as Error).message}`,
      );
      if (!res.headersSent)
        rpcError(
          res,
          tooLarge ? 413 : err instanceof SyntaxError ? 400 : 500,
          tooLarge ? 'Body too large' : err instanceof SyntaxError ? 'Body is not JSON' : 'Internal error',
        );
    });
  });
  // Clients that vanish without DELETE leave MCP sessions behind; their browsers go with them.
  const sweeper = setInterval(
    () => {
      const cutoff = Date.now() - opts.deps.idleTimeoutMs;
      for (const [id, s] of sessions) if (s.lastSeen < cutoff) void closeSession(id);
    },
    Math.max(1_000, Math.min(opts.deps.idleTimeoutMs / 2, 60_000)),
  );
  sweeper.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    sessionCount: () => sessions.size,
    toolServerCount: () => live.size,
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map(closeSession));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
