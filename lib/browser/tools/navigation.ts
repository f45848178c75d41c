import * as z from 'zod';
import { describeError, ToolError } from '../../errors.js';
import { defineTool, NAVIGATION_TIMEOUT_MS, sessionOf } from './context.js';

export const navigate = defineTool({
  name: 'navigate',
  description:
    "Open a URL in the session's current tab and wait for the document to load. Follow with content.get_markdown, extract.page_summary or snapshot.",
  input: z.object({ url: z.string().url().describe('Absolute http(s) URL') }),
  annotations: { title: 'Navigate to a URL', readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  needsSession: true,
  trace: { type: 'navigate' },
  async handle(ctx, args, response) {
    const session = await sessionOf(ctx);
    if (!/^https?:$/.test(new URL(args.url).protocol)) throw new ToolError('Only http and https URLs can be opened');
    let status: number | undefined;
    try {
      const res = await session.page.goto(args.url, { waitUntil: 'domcontentloaded', timeout: NAVIGATION_TIMEOUT_MS });
      status = res?.status();
    } catch (err) {
      const reason = describeError(err);
      // The network guard aborts refused requests as "blocked by client"; say what that means.
      const refused = reason.includes('ERR_BLOCKED_BY_CLIENT')
        ? ' (refused by the network policy: private, loopback and link-local addresses cannot be opened from this browser)'
        : '';
      throw new ToolError(`Could not open ${args.url}: ${reason}${refused}`, err);
    }
    session.refs.clear();
    response.text(
      `Opened ${session.page.url()}${status ? ` (HTTP ${status})` : ''}\nTitle: ${await session.page.title()}`,
    );
  },
});

export const NAVIGATION_TOOLS = [navigate];
