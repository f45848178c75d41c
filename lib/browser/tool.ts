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

/** One piece of a tool's answer, kept structured so each caller renders it its own way. */
export type ToolResponsePart = { kind: 'text'; value: string } | { kind: 'json'; value: unknown };

/**
 * The response builder handed to every handler. The MCP layer turns it into content
 * blocks; the agent turns it into model-facing text with `toText()`.
 */
export class ResponseBuilder implements ToolResponse {
  readonly parts: ToolResponsePart[] = [];
  private failed = false;

  text(value: string): void {
    this.parts.push({ kind: 'text', value });
  }

  json(value: unknown): void {
    this.parts.push({ kind: 'json', value });
  }

  /** Marks the answer as a tool error: a readable message for the caller, not a crash. */
  error(message: string): void {
    this.failed = true;
    this.parts.push({ kind: 'text', value: message });
  }

  get isError(): boolean {
    return this.failed;
  }

  toText(): string {
    return this.parts.map((p) => (p.kind === 'text' ? p.value : JSON.stringify(p.value, null, 2))).join('\n\n');
  }
}

/** What a handler may use: the task's browser session (if the tool needs one) and the knowledge index. */
export interface ToolContext<Session = unknown, Knowledge = unknown> {
  session: Session;
  knowledge: Knowledge;
}

/**
 * A tool is data. `input` never includes `sessionId`; `needsSession` tells the MCP layer
 * to add one and resolve it.
 */
export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject, Ctx = unknown> {
  name: string;
  description: string;
  input: Input;
  annotations: ToolAnnotations;
  needsSession: boolean;
  handle(ctx: Ctx, args: z.infer<Input>, response: ResponseBuilder): Promise<void>;
}
