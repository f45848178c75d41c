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

/** The response builder handed to every handler; `renderToolResult` shows it to callers. */
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
}

/** A tool's answer as every caller shows it: text blocks, plus the structured value when there is one. */
export interface RenderedToolResult {
  blocks: string[];
  /** The last JSON part when it is an object (MCP `structuredContent`). */
  structured?: Record<string, unknown>;
  isError: boolean;
  /** The blocks joined, as the agent's model reads them. */
  text: string;
}

/** The one renderer of tool answers, used by the MCP server and the agent alike. */
export function renderToolResult(response: ResponseBuilder): RenderedToolResult {
  const blocks = response.parts.map((p) => (p.kind === 'text' ? p.value : JSON.stringify(p.value, null, 2)));
  const lastJson = response.parts.filter((p) => p.kind === 'json').at(-1)?.value;
  const structured =
    !response.isError && lastJson !== null && typeof lastJson === 'object' && !Array.isArray(lastJson)
      ? (lastJson as Record<string, unknown>)
      : undefined;
  return { blocks, ...(structured ? { structured } : {}), isError: response.isError, text: blocks.join('\n\n') };
}

/** How a call shows in a task's step trace (SPEC §2.1 `stepSummaries`). */
export interface ToolTrace<Args> {
  /** The step type a reader expects: navigate, click, fill, read, extract, find, … */
  type: string;
  /** The message of a successful step; the answer's first line when absent. */
  message?(args: Args, page: { url: string }): string;
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
  trace: ToolTrace<z.infer<Input>>;
  handle(ctx: Ctx, args: z.infer<Input>, response: ResponseBuilder): Promise<void>;
}
