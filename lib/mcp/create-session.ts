import * as z from 'zod';
import { AppError, describeError, ToolError } from '../errors.js';
import { defineTool } from '../browser/tools/context.js';

/** `create_session` (SPEC §4.5): the MCP-only tool that opens a browser session for the other tools. */
export const createSession = defineTool({
  name: 'create_session',
  description:
    'Open an isolated browser session (own cookies, proxy, fingerprint). Returns { sessionId } for the other tools.',
  input: z.object({
    proxy: z
      .string()
      .regex(/^(https?|socks5):\/\/\S+$/, 'must be an http://, https:// or socks5:// URL')
      .optional()
      .describe(
        "Your own proxy for this session; refused unless the server's operator allows caller proxies (--allow-caller-proxy)",
      ),
    fingerprint: z
      .string()
      .min(1)
      .optional()
      .describe('Seed: the same seed always gives the same user agent, viewport, locale, timezone…'),
    humanize: z.boolean().optional().describe('Human-like mouse paths and typing delays'),
    humanPreset: z.enum(['default', 'careful']).optional(),
  }),
  annotations: { title: 'Create a browser session', readOnlyHint: false, destructiveHint: false },
  needsSession: false,
  trace: { type: 'create_session' },
  async handle(ctx, args, response) {
    if (!ctx.openSession) throw new ToolError('Browser sessions cannot be created here');
    let sessionId: string;
    try {
      sessionId = await ctx.openSession(args);
    } catch (err) {
      if (err instanceof AppError && err.expose) throw err;
      throw new ToolError(`Could not create a browser session: ${describeError(err)}`, err);
    }
    response.json({ sessionId });
  },
});
