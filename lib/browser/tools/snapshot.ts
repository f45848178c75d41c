import * as z from 'zod';
import { takeSnapshot } from '../snapshot.js';
import { defineTool, sessionOf } from './context.js';

export const snapshot = defineTool({
  name: 'snapshot',
  description:
    'Accessibility snapshot of the current page with element refs ([ref=e12]) for click, fill and interact. Narrow it with `contains` (text to look for; matching nodes are kept with their ancestors) and/or `roles` (e.g. ["button","link","textbox"]). Large pages are truncated: narrow with contains/roles.',
  input: z.object({
    contains: z.string().min(1).optional().describe('Keep only nodes whose text contains this (case-insensitive)'),
    roles: z.array(z.string().min(1)).optional().describe('Keep only nodes with these ARIA roles'),
  }),
  annotations: { title: 'Page snapshot', readOnlyHint: true },
  needsSession: true,
  trace: { type: 'snapshot', message: (_args, page) => `Took a snapshot of ${page.url}` },
  async handle(ctx, args, response) {
    const session = await sessionOf(ctx);
    const snap = await takeSnapshot(session.page, { contains: args.contains, roles: args.roles });
    session.rememberRefs(snap.refs);
    const header = `Page: ${session.page.url()}\nTitle: ${await session.page.title()}`;
    const body = snap.text || '(no nodes match the filter)';
    response.text(`${header}\n\n${body}`);
  },
});

export const SNAPSHOT_TOOLS = [snapshot];
