import * as z from 'zod';
import { describeSite } from '../../knowledge/describe.js';
import { runLookup } from '../../knowledge/recipes.js';
import { defineTool } from './context.js';

/**
 * The fast path: find a site in the bundled knowledge graph, then call one of its lookup
 * recipes on a public endpoint. Neither needs a page, so an agent answering through them
 * never starts a browser. Both record as `fast_path` steps.
 */
export const knowledge = defineTool({
  name: 'knowledge',
  description:
    'Find a site in the bundled knowledge graph by domain, name or goal (e.g. "npm", "github.com", "weather forecast"). ' +
    'Returns its lookup operations (answers from public APIs, without a browser: call `lookup`), URL patterns, login needs and tips.',
  input: z.object({ query: z.string().min(1), limit: z.number().int().min(1).max(10).default(3) }),
  annotations: { title: 'Site knowledge', readOnlyHint: true },
  needsSession: false,
  trace: { type: 'fast_path', message: (args) => `Looked up site knowledge for "${args.query}"` },
  async handle(ctx, args, response) {
    const hits = ctx.knowledge.search(args.query, args.limit);
    if (hits.length === 0) {
      response.text(
        `No knowledge entry matches "${args.query}". Browse instead: navigate to the site or a web search.`,
      );
      return;
    }
    response.text(hits.map(describeSite).join('\n\n'));
    response.json({
      sites: hits.map((e) => ({
        site: e.site,
        name: e.name,
        domains: e.domains,
        operations: e.lookups.map((op) => op.name),
        loginRequired: e.login.required,
      })),
    });
  },
});

export const lookup = defineTool({
  name: 'lookup',
  description:
    'Call a lookup recipe of the knowledge graph: {site, operation, params} as `knowledge` lists them. ' +
    "Answers from the site's public API in about a second, without a browser; prefer it over browsing whenever an operation fits.",
  input: z.object({
    site: z.string().min(1).describe('Site id from `knowledge`, e.g. "npm"'),
    operation: z.string().min(1).describe('Operation name from `knowledge`, e.g. "package"'),
    params: z.record(z.string(), z.unknown()).default({}).describe("The operation's parameters"),
  }),
  annotations: { title: 'Public API lookup', readOnlyHint: true, openWorldHint: true },
  needsSession: false,
  trace: { type: 'fast_path' },
  async handle(ctx, args, response) {
    const result = await runLookup(ctx.knowledge, args, ctx.http);
    response.text(`Looked up ${result.site}/${result.operation}: ${result.url}`);
    response.json(result.fields);
  },
});

export const KNOWLEDGE_TOOLS = [knowledge, lookup];
