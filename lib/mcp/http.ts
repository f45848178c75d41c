import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Authenticator } from './auth.js';
import type { Logger } from './log.js';
import { createToolServer, type ToolServer, type ToolServerDeps } from './server.js';

/**
 * Streamable HTTP: `POST/GET/DELETE /mcp` and `GET /health`. Each initialize opens an
 * MCP session with its own tool server (and so its own browser sessions), bound to the
 * identity that opened it.
 */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

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
}

export interface RunningHttpServer {
  url: string;
  port: number;
  sessionCount(): number;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  send(res, status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null }, headers);
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

/** Host without port; IPv6 literals keep their brackets. */
export function hostName(hostHeader: string | undefined): string {
  const h = (hostHeader ?? '').toLowerCase();
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : (h.split(':')[0] ?? '');
}

export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const sessions = new Map<string, McpSession>();
  // DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends its own Host.
  const checkHost = LOOPBACK.has(opts.host);

  const closeSession = async (id: string): Promise<void> => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.tools.close();
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/health') {
      if (req.method !== 'GET') return send(res, 405, { error: 'Method not allowed' }, { allow: 'GET' });
      return send(res, 200, { status: 'ok', sessions: sessions.size });
    }
    if (path !== '/mcp') return send(res, 404, { error: 'Not found' });
    if (checkHost && !LOOPBACK.has(hostName(req.headers.host))) return rpcError(res, 403, `Host ${req.headers.host ?? '(none)'} is not allowed`);
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
    const body = await readJson(req);
    if (!isInitializeRequest(body)) return rpcError(res, 400, 'The first request of a session must be initialize');
    const tools = createToolServer(opts.deps, identity);
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
    await tools.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const tooLarge = err instanceof RangeError;
      opts.log[tooLarge || err instanceof SyntaxError ? 'warn' : 'error'](`HTTP ${req.method} ${req.url}: ${(err as Error).message}`);
      if (!res.headersSent) rpcError(res, tooLarge ? 413 : err instanceof SyntaxError ? 400 : 500, tooLarge ? 'Body too large' : err instanceof SyntaxError ? 'Body is not JSON' : 'Internal error');
    });
  });
  // Clients that vanish without DELETE leave MCP sessions behind; their browsers go with them.
  const sweeper = setInterval(() => {
    const cutoff = Date.now() - opts.deps.idleTimeoutMs;
    for (const [id, s] of sessions) if (s.lastSeen < cutoff) void closeSession(id);
  }, Math.max(1_000, Math.min(opts.deps.idleTimeoutMs / 2, 60_000)));
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
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map(closeSession));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
