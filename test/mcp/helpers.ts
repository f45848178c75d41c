import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Shared by the MCP tier: how to start the real CLI and read tool results. */
export const ROOT = resolve(import.meta.dirname, '..', '..');
export const CLI = resolve(ROOT, 'lib/mcp/cli.ts');
/** `node --import tsx cli.ts`: the same code path as `npm run mcp`, without npm's startup cost. */
export const cliCommand = (args: string[]): { command: string; args: string[] } => ({
  command: process.execPath,
  args: ['--import', 'tsx', CLI, ...args],
});

export const newClient = (): Client => new Client({ name: 'bts-test', version: '1.0.0' });

export interface ToolCall {
  text: string;
  isError: boolean;
  /** MCP `structuredContent`: the tool's JSON part when it is an object. */
  structured?: Record<string, unknown>;
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolCall> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return {
    text,
    isError: result.isError === true,
    ...(result.structuredContent ? { structured: result.structuredContent } : {}),
  };
}

/** The ref printed for an element with this role and name in a snapshot. */
export function refOf(snapshot: string, role: string, name: string): string {
  const line = snapshot.split('\n').find((l) => l.includes(`${role} "${name}"`));
  const ref = line ? /\[ref=([a-z0-9]+)\]/.exec(line)?.[1] : undefined;
  if (!ref) throw new Error(`No ${role} "${name}" in snapshot:\n${snapshot}`);
  return ref;
}

export async function createSession(client: Client, args: Record<string, unknown> = {}): Promise<string> {
  const res = await call(client, 'create_session', args);
  if (res.isError) throw new Error(res.text);
  return (JSON.parse(res.text) as { sessionId: string }).sessionId;
}
