import * as z from 'zod';
import { readPageDom } from '../dom.js';
import { ToolError } from '../../errors.js';
import { formatIssues } from '../../validation.js';
import { extractWithSchema, JsonSchemaSchema } from '../extract.js';
import { pageToMarkdown } from '../markdown.js';
import { summarizePage } from '../page-summary.js';
import { defineTool, sessionOf } from './context.js';

/** Markdown beyond this is cut: a model pays per character and rarely needs the tail. */
const MARKDOWN_MAX_CHARS = 60_000;

export const getMarkdown = defineTool({
  name: 'content.get_markdown',
  description:
    'The readable main content of the current page as Markdown (navigation and page chrome left out). Preferred over snapshots for reading.',
  input: z.object({}),
  annotations: { title: 'Page content as Markdown', readOnlyHint: true },
  needsSession: true,
  trace: { type: 'read', message: (_args, page) => `Read ${page.url} as Markdown` },
  async handle(ctx, _args, response) {
    const session = await sessionOf(ctx);
    const md = pageToMarkdown(await readPageDom(session.page));
    response.text(
      md.length > MARKDOWN_MAX_CHARS
        ? `${md.slice(0, MARKDOWN_MAX_CHARS)}\n\n[truncated at ${MARKDOWN_MAX_CHARS} characters]`
        : md || '(the page has no readable text)',
    );
  },
});

export const pageSummary = defineTool({
  name: 'extract.page_summary',
  description:
    'A structured overview of the current page: title, description, headings, main links and forms with their fields.',
  input: z.object({}),
  annotations: { title: 'Page summary', readOnlyHint: true },
  needsSession: true,
  trace: { type: 'extract', message: (_args, page) => `Summarised ${page.url}` },
  async handle(ctx, _args, response) {
    const session = await sessionOf(ctx);
    response.json(summarizePage(await readPageDom(session.page)));
  },
});

export const extract = defineTool({
  name: 'extract',
  description:
    'Extract data matching a JSON Schema from the current page without a language model: JSON-LD, microdata, tables, lists and labelled fields. Property names are matched to labels, table headers and schema.org names.',
  input: z.object({
    schema: z.record(z.string(), z.unknown()).describe('A JSON Schema (type object or array, with properties/items)'),
  }),
  annotations: { title: 'Extract structured data', readOnlyHint: true },
  needsSession: true,
  trace: { type: 'extract', message: (_args, page) => `Extracted structured data from ${page.url}` },
  async handle(ctx, args, response) {
    const session = await sessionOf(ctx);
    const schema = JsonSchemaSchema.safeParse(args.schema);
    if (!schema.success) throw new ToolError(`Invalid schema: ${formatIssues(schema.error.issues, { all: true })}`);
    response.json(extractWithSchema(await readPageDom(session.page), schema.data));
  },
});

export const CONTENT_TOOLS = [getMarkdown, pageSummary, extract];
