import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { BROWSER_TOOLS, type BrowserTool } from '../browser/tools/index.js';

/**
 * The browser tools as the model sees them: the MCP tools' names, descriptions and inputs
 * (no sessionId: the task owns one browser session), plus `done`. Providers such as
 * Bedrock and OpenAI forbid dots in tool names, so `content.get_markdown` is offered as
 * `content_get_markdown` and mapped back when called.
 */
export const DONE_TOOL = 'done';

export const DoneInput = z.object({
  answer: z.string().describe('The final answer for the user, in plain language'),
  data: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The structured result as a JSON object; required when the task asks for a JSON Schema'),
});
export type DoneArgs = z.infer<typeof DoneInput>;

export const providerToolName = (name: string): string => name.replace(/\./g, '_');

export interface AgentToolbox {
  tools: ToolSet;
  /** Provider name → browser tool (undefined for `done` and unknown names). */
  resolve(providerName: string): BrowserTool | undefined;
}

export function agentToolbox(browserTools: readonly BrowserTool[] = BROWSER_TOOLS): AgentToolbox {
  const byProviderName = new Map(browserTools.map((t) => [providerToolName(t.name), t]));
  const tools: ToolSet = {};
  for (const [name, t] of byProviderName) tools[name] = tool({ description: t.description, inputSchema: t.input });
  tools[DONE_TOOL] = tool({
    description:
      'Finish the task with the final answer (and the structured data when a schema was given). Call it once you know the answer.',
    inputSchema: DoneInput,
  });
  return { tools, resolve: (n) => byProviderName.get(n) };
}
