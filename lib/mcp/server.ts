import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { KnowledgeIndex } from '../browser/knowledge.js';
import type { BrowserSessionOptions } from '../browser/session.js';
import { BROWSER_TOOLS, runTool, withSessionId } from '../browser/tools/index.js';
import type { ResponseBuilder } from '../browser/tool.js';
import type { BrowserPool } from './browser-pool.js';
import type { Logger } from './log.js';
import { SessionRegistry } from './session-registry.js';

/**
 * One McpServer per MCP session (stdio: the process; HTTP: each initialize). It exposes
 * `create_session` plus every shared browser tool, adding `sessionId` to those that
 * need a browser and resolving it in this MCP session's own registry.
 */
export interface ToolServerDeps {
  pool: BrowserPool;
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

function toResult(response: ResponseBuilder): CallToolResult {
  const content = response.parts.map((p) => ({ type: 'text' as const, text: p.kind === 'text' ? p.value : JSON.stringify(p.value, null, 2) }));
  return { content: content.length ? content : [{ type: 'text', text: 'OK' }], isError: response.isError };
}

const CreateSessionInput = z.object({
  proxy: z.string().regex(/^(https?|socks5):\/\/\S+$/, 'must be an http://, https:// or socks5:// URL').optional(),
  fingerprint: z.string().min(1).optional().describe('Seed: the same seed always gives the same user agent, viewport, locale, timezone…'),
  humanize: z.boolean().optional().describe('Human-like mouse paths and typing delays'),
  humanPreset: z.enum(['default', 'careful']).optional(),
});

export function createToolServer(deps: ToolServerDeps): ToolServer {
  const server = new McpServer({ name: 'browser-task-service', version: '0.1.0' }, { capabilities: { tools: {} } });
  const registry = new SessionRegistry(deps.pool, deps.idleTimeoutMs, deps.log);

  server.registerTool(
    'create_session',
    {
      description: 'Open an isolated browser session (own cookies, proxy, fingerprint). Returns { sessionId } for the other tools.',
      inputSchema: CreateSessionInput,
      annotations: { title: 'Create a browser session', readOnlyHint: false, destructiveHint: false },
    },
    async (args) => {
      try {
        const sessionId = await registry.create({ ...deps.defaults, ...Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) });
        return { content: [{ type: 'text', text: JSON.stringify({ sessionId }) }], structuredContent: { sessionId } };
      } catch (err) {
        deps.log.error(`create_session failed: ${(err as Error).message}`);
        return { content: [{ type: 'text', text: `Could not create a browser session: ${(err as Error).message.split('\n')[0]}` }], isError: true };
      }
    },
  );

  for (const tool of BROWSER_TOOLS) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: withSessionId(tool), annotations: tool.annotations },
      async (args: Record<string, unknown>) => {
        const { sessionId, ...rest } = args;
        let session;
        if (tool.needsSession) {
          session = registry.get(String(sessionId));
          if (!session) {
            return { content: [{ type: 'text', text: `Unknown sessionId ${String(sessionId)} (closed after being idle, or never created here). Call create_session.` }], isError: true };
          }
        }
        const started = Date.now();
        const response = await runTool(tool, { session, knowledge: deps.knowledge }, rest);
        deps.log.debug(`${tool.name} ${response.isError ? 'failed' : 'ok'} in ${Date.now() - started} ms`);
        return toResult(response);
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
