import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserLauncher } from '../browser/chromium.js';
import type { KnowledgeIndex } from '../knowledge/index.js';
import { guardedTextGet } from '../browser/network/fetch.js';
import type { NetworkPolicy } from '../browser/network/guard.js';
import type { BrowserSession, BrowserSessionOptions } from '../browser/session.js';
import { renderToolResult } from '../browser/tool.js';
import { BROWSER_TOOLS, runTool, withSessionId, type BrowserTool } from '../browser/tools/index.js';
import type { SessionRequest } from '../browser/tools/context.js';
import { ToolError } from '../errors.js';
import { ClientLog } from './client-log.js';
import { createSession } from './create-session.js';
import { checkCallerProxy } from './caller-proxy.js';
import type { Logger, LogLevel } from './log.js';
import { reportProgress, type ToolCallExtra } from './progress.js';
import { SessionRegistry } from './session-registry.js';

export interface ToolServerDeps {
  launcher: BrowserLauncher;
  network: NetworkPolicy;
  knowledge: KnowledgeIndex;
  /** The operator's defaults (--proxy, --fingerprint, …); the operator's proxy is always allowed. */
  defaults: Omit<BrowserSessionOptions, 'contextOptions'>;
  idleTimeoutMs: number;
  /** Open browser sessions per MCP session (--max-browser-sessions). */
  maxBrowserSessions: number;
  /** Whether `create_session` may take a caller's proxy (--allow-caller-proxy). */
  allowCallerProxy: boolean;
  log: Logger;
  /** The server's --log-level: what a client receives until it sends `logging/setLevel`. */
  logLevel: LogLevel;
}

export interface ToolServer {
  server: McpServer;
  registry: SessionRegistry;
  close(): Promise<void>;
}

/** Every tool this server offers: `create_session`, then the browser tools the agent shares. */
export const MCP_TOOLS: readonly BrowserTool[] = [createSession, ...BROWSER_TOOLS];

/** The tool context's session for a call: the one its `sessionId` names, or the error telling how to get one. */
export function sessionResolver(session: BrowserSession | undefined): () => Promise<BrowserSession> {
  return async () => {
    if (!session) throw new ToolError('This tool needs a browser session; call `create_session` first.');
    return session;
  };
}

/**
 * One McpServer per MCP session (stdio: the process; HTTP: each initialize). Tools that
 * need a browser get a `sessionId` argument, resolved in this MCP session's own registry.
 */
export function createToolServer(deps: ToolServerDeps, tenant: string): ToolServer {
  const server = new McpServer(
    { name: 'browser-task-service', version: '0.1.0' },
    { capabilities: { tools: {}, logging: {} } },
  );
  const log = new ClientLog(server, deps.log, deps.logLevel);
  const registry = new SessionRegistry(
    deps.launcher,
    tenant,
    deps.network,
    { idleTimeoutMs: deps.idleTimeoutMs, maxSessions: deps.maxBrowserSessions },
    log,
  );
  // Lookups run from Node, not a page: the same guard judges them, every redirect hop included.
  const http = guardedTextGet(deps.network);
  const openSession = async (request: SessionRequest): Promise<string> => {
    if (request.proxy !== undefined) await checkCallerProxy(request.proxy, deps.allowCallerProxy, deps.network);
    const chosen = Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined));
    return registry.create({ ...deps.defaults, ...chosen });
  };

  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: withSessionId(tool), annotations: tool.annotations },
      async (args: Record<string, unknown>, extra: ToolCallExtra): Promise<CallToolResult> => {
        const { sessionId, ...rest } = args;
        const session = tool.needsSession ? registry.get(String(sessionId)) : undefined;
        if (tool.needsSession && !session) {
          return {
            content: [
              {
                type: 'text',
                text: `Unknown sessionId ${String(sessionId)} (closed after being idle, or never created here). Call create_session.`,
              },
            ],
            isError: true,
          };
        }
        const started = Date.now();
        const stopProgress = reportProgress(extra, tool.name);
        let rendered;
        try {
          rendered = renderToolResult(
            await runTool(
              tool,
              { session: sessionResolver(session), knowledge: deps.knowledge, http, openSession },
              rest,
            ),
          );
        } finally {
          stopProgress();
        }
        log.debug(`${tool.name} ${rendered.isError ? 'failed' : 'ok'} in ${Date.now() - started} ms`);
        return {
          content: rendered.blocks.length
            ? rendered.blocks.map((text) => ({ type: 'text' as const, text }))
            : [{ type: 'text', text: 'OK' }],
          ...(rendered.structured ? { structuredContent: rendered.structured } : {}),
          isError: rendered.isError,
        };
      },
    );
  }

  return {
    server,
    registry,
    async close() {
      await registry.closeAll();
      await server.close().catch(() => undefined);
    },
  };
}
