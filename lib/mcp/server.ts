import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserLauncher } from '../browser/chromium.js';
import type { KnowledgeIndex } from '../browser/knowledge.js';
import type { NetworkPolicy } from '../browser/network/guard.js';
import type { BrowserSession, BrowserSessionOptions } from '../browser/session.js';
import { renderToolResult } from '../browser/tool.js';
import { BROWSER_TOOLS, runTool, withSessionId, type BrowserTool } from '../browser/tools/index.js';
import { ToolError } from '../errors.js';
import { createSession } from './create-session.js';
import type { Logger } from './log.js';
import { SessionRegistry } from './session-registry.js';

export interface ToolServerDeps {
  launcher: BrowserLauncher;
  network: NetworkPolicy;
  knowledge: KnowledgeIndex;
  defaults: Omit<BrowserSessionOptions, 'contextOptions'>;
  idleTimeoutMs: number;
  log: Logger;
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
  const server = new McpServer({ name: 'browser-task-service', version: '0.1.0' }, { capabilities: { tools: {} } });
  const registry = new SessionRegistry(deps.launcher, tenant, deps.network, deps.idleTimeoutMs, deps.log);
  const openSession = async (request: Omit<BrowserSessionOptions, 'contextOptions'>): Promise<string> => {
    const chosen = Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined));
    return registry.create({ ...deps.defaults, ...chosen });
  };

  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: withSessionId(tool), annotations: tool.annotations },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        const { sessionId, ...rest } = args;
        const session = tool.needsSession ? registry.get(String(sessionId)) : undefined;
        if (tool.needsSession && !session) {
          return {
            content: [{ type: 'text', text: `Unknown sessionId ${String(sessionId)} (closed after being idle, or never created here). Call create_session.` }],
            isError: true,
          };
        }
        const started = Date.now();
        const response = await runTool(tool, { session: sessionResolver(session), knowledge: deps.knowledge, openSession }, rest);
        const rendered = renderToolResult(response);
        deps.log.debug(`${tool.name} ${rendered.isError ? 'failed' : 'ok'} in ${Date.now() - started} ms`);
        return {
          content: rendered.blocks.length ? rendered.blocks.map((text) => ({ type: 'text' as const, text })) : [{ type: 'text', text: 'OK' }],
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
