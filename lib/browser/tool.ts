import type { z } from 'zod';

/**
 * The browser tool contract shared by the MCP server and the agent: a tool is data
 * (name, description, zod input, annotations) plus a handler that writes to a response
 * builder. Inputs never contain `sessionId`: the MCP layer adds it and resolves the
 * session; the agent owns exactly one session per task.
 */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolResponse {
  /** Plain text shown to the caller (the model or the MCP client). */
  text(value: string): void;
  /** A structured value, also rendered as JSON text. */
  json(value: unknown): void;
}
