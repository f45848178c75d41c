import * as z from 'zod';
import { defineTool } from './context.js';

export const knowledge = defineTool({
  name: 'knowledge',
  description:
    'Look up the bundled site knowledge for a site or a goal (e.g. "github.com", "weather forecast", "search papers"): URL patterns, public endpoints that avoid browsing, whether login is needed, and tips.',
  input: z.object({ query: z.string().min(1), limit: z.number().int().min(1).max(20).default(5) }),
  annotations: { title: 'Site knowledge', readOnlyHint: true },
  needsSession: false,
  trace: { type: 'knowledge', message: (args) => `Looked up site knowledge: query=${args.query}` },
  async handle(ctx, args, response) {
    const hits = ctx.knowledge.search(args.query, args.limit);
    if (hits.length === 0) response.text(`No knowledge entry matches "${args.query}".`);
    else response.json(hits);
  },
});

export const KNOWLEDGE_TOOLS = [knowledge];
