import * as z from 'zod';
import { AppError, describeError } from '../../errors.js';
import { formatIssues } from '../../validation.js';
import { ResponseBuilder } from '../tool.js';
import { ACTION_TOOLS } from './actions.js';
import { CONTENT_TOOLS } from './content.js';
import type { BrowserTool, BrowserToolContext } from './context.js';
import { KNOWLEDGE_TOOLS } from './knowledge.js';
import { NAVIGATION_TOOLS } from './navigation.js';
import { SNAPSHOT_TOOLS } from './snapshot.js';

export type { BrowserTool, BrowserToolContext } from './context.js';

/** Every browser tool the MCP server and the agent share (session management is MCP-only). */
export const BROWSER_TOOLS: readonly BrowserTool[] = [
  ...NAVIGATION_TOOLS,
  ...SNAPSHOT_TOOLS,
  ...ACTION_TOOLS,
  ...CONTENT_TOOLS,
  ...KNOWLEDGE_TOOLS,
];

export function findTool(name: string): BrowserTool | undefined {
  return BROWSER_TOOLS.find((t) => t.name === name);
}

/**
 * Validates the arguments and runs the tool; every failure becomes a readable tool error
 * in the response (never a throw), as a model can only react to what it reads.
 */
export async function runTool(tool: BrowserTool, ctx: BrowserToolContext, rawArgs: unknown): Promise<ResponseBuilder> {
  const response = new ResponseBuilder();
  const parsed = tool.input.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    response.error(`Invalid arguments for ${tool.name}: ${formatIssues(parsed.error.issues, { all: true })}`);
    return response;
  }
  try {
    await tool.handle(ctx, parsed.data, response);
  } catch (err) {
    const message = err instanceof AppError && err.expose ? err.message : `${tool.name} failed: ${describeError(err)}`;
    response.error(message);
  }
  return response;
}

/** The input schema with `sessionId`, as the MCP server exposes session-bound tools. */
export function withSessionId(tool: BrowserTool): z.ZodObject {
  return tool.needsSession
    ? tool.input.extend({ sessionId: z.string().min(1).describe('From create_session') })
    : tool.input;
}
