import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  LoggingMessageNotificationSchema,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { slowRoutes, type SlowRoutes } from '../support/slow-routes.js';
import { cliCommand, createSession, newClient, ROOT } from './helpers.js';

/** The logging capability (logging/setLevel honoured) and progress for slow tool calls, over stdio. */
let fx: FixtureServer;
let slow: SlowRoutes;
let client: Client;
const logs: LoggingMessageNotification['params'][] = [];

beforeAll(async () => {
  slow = slowRoutes();
  fx = await startFixtureServer({ routes: slow.routes });
  client = newClient();
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params);
  });
  const { command, args } = cliCommand(['--log-level', 'info', '--allow-private-network']);
  await client.connect(new StdioClientTransport({ command, args, cwd: ROOT, stderr: 'ignore' }));
});

afterAll(async () => {
  await client?.close();
  slow?.release();
  await fx?.close();
});

/** Notifications travel beside the response; give them a moment to land. */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 150));

describe('MCP logging and progress', () => {
  it("declares logging and sends this session's log at the level the client chose", async () => {
    expect(client.getServerCapabilities()?.logging).toBeDefined();

    // Until the client chooses, the server's --log-level (info): session events, no debug lines.
    const sid = await createSession(client);
    await client.callTool({ name: 'navigate', arguments: { sessionId: sid, url: `${fx.url}/pages/article.html` } });
    await settle();
    expect(logs.filter((l) => l.level === 'info').map((l) => l.data)).toContainEqual(
      expect.stringMatching(/^browser session s_\w+ opened \(1\/5\)$/),
    );
    expect(logs.some((l) => l.level === 'debug')).toBe(false);

    await expect(client.setLoggingLevel('debug')).resolves.toEqual({});
    await client.callTool({ name: 'snapshot', arguments: { sessionId: sid } });
    await settle();
    expect(logs.filter((l) => l.level === 'debug').map((l) => l.data)).toContainEqual(
      expect.stringMatching(/^snapshot ok in \d+ ms$/),
    );
    expect(logs.every((l) => l.logger === 'browser-task-service')).toBe(true);

    await client.setLoggingLevel('error');
    const seen = logs.length;
    await createSession(client);
    await client.callTool({ name: 'snapshot', arguments: { sessionId: sid } });
    await settle();
    expect(logs.slice(seen)).toEqual([]);
  });

  it('reports progress for a tool call that runs longer than a second when asked', async () => {
    const sid = await createSession(client);
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: 'navigate', arguments: { sessionId: sid, url: `${fx.url}/slow/page?ms=2600` } },
      CallToolResultSchema,
      {
        onprogress: (p) => progress.push(p),
      },
    );
    expect(result.isError).not.toBe(true);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
    expect(progress[0]?.message).toMatch(/^navigate still running after \d+ s$/);

    // A quick call sends none.
    const quick: Progress[] = [];
    await client.callTool({ name: 'snapshot', arguments: { sessionId: sid } }, CallToolResultSchema, {
      onprogress: (p) => quick.push(p),
    });
    expect(quick).toEqual([]);
  });
});
