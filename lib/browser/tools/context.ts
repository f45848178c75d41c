import type { z } from 'zod';
import { ToolError } from '../errors.js';
import type { KnowledgeIndex } from '../knowledge.js';
import type { BrowserSession } from '../session.js';
import type { ToolDefinition } from '../tool.js';

/** What every browser tool receives; `session` is set whenever the tool `needsSession`. */
export interface BrowserToolContext {
  session: BrowserSession | undefined;
  knowledge: KnowledgeIndex;
}

export type BrowserTool<Input extends z.ZodObject = z.ZodObject> = ToolDefinition<Input, BrowserToolContext>;

/** Keeps each tool's argument type precise while the list of tools stays uniform. */
export function defineTool<Input extends z.ZodObject>(tool: BrowserTool<Input>): BrowserTool<Input> {
  return tool;
}

export function sessionOf(ctx: BrowserToolContext): BrowserSession {
  if (!ctx.session) throw new ToolError('This tool needs a browser session; call `create_session` first.');
  ctx.session.touch();
  return ctx.session;
}

/** Actions fail fast: a model waiting 30 s on a missing element wastes its budget. */
export const ACTION_TIMEOUT_MS = 5_000;
export const NAVIGATION_TIMEOUT_MS = 30_000;
