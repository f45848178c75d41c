import type { z } from 'zod';
import type { KnowledgeIndex } from '../../knowledge/index.js';
import type { HttpGet } from '../../knowledge/recipes.js';
import type { BrowserSession } from '../session.js';
import type { ToolDefinition } from '../tool.js';

/** The options a caller may give `create_session` (MCP only: the agent owns one session per task). */
export interface SessionRequest {
  proxy?: string;
  fingerprint?: string;
  humanize?: boolean;
  humanPreset?: 'default' | 'careful';
}

/** What every browser tool receives. */
export interface BrowserToolContext {
  /**
   * The caller's browser session. The MCP server resolves the call's `sessionId`; the
   * agent opens its browser on the first call, so tools that need no page never start one.
   */
  session: () => Promise<BrowserSession>;
  knowledge: KnowledgeIndex;
  /** GETs for lookup recipes, under the caller's network guard (guardedTextGet): no browser involved. */
  http: HttpGet;
  /** Opens a browser session for this caller; present where sessions are the caller's to make (MCP). */
  openSession?: (request: SessionRequest) => Promise<string>;
}

export type BrowserTool<Input extends z.ZodObject = z.ZodObject> = ToolDefinition<Input, BrowserToolContext>;

/** Keeps each tool's argument type precise while the list of tools stays uniform. */
export function defineTool<Input extends z.ZodObject>(tool: BrowserTool<Input>): BrowserTool<Input> {
  return tool;
}

export async function sessionOf(ctx: BrowserToolContext): Promise<BrowserSession> {
  const session = await ctx.session();
  session.touch();
  return session;
}

/** Actions fail fast: a model waiting 30 s on a missing element wastes its budget. */
export const ACTION_TIMEOUT_MS = 5_000;
export const NAVIGATION_TIMEOUT_MS = 30_000;
