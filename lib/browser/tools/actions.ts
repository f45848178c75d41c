import * as z from 'zod';
import { ToolError } from '../../errors.js';
import { resolveRef } from '../refs.js';
import type { BrowserSession } from '../session.js';
import { settleAfter } from '../settle.js';
import { describeSettle } from '../settle-rules.js';
import { takeSnapshot, type SnapshotNode } from '../snapshot.js';
import { ACTION_TIMEOUT_MS, defineTool, NAVIGATION_TIMEOUT_MS, sessionOf } from './context.js';
import { clickRef, describeRef, fillRef, pageLine, pressEnter, submitFrom } from './input.js';

/** Runs an action, waits for what it caused, and says what that was ("navigated to …", "page updated", "no visible change"). */
async function withOutcome(session: BrowserSession, action: () => Promise<unknown>): Promise<string> {
  const { report } = await settleAfter(session, action);
  return describeSettle(report);
}

const ref = z
  .string()
  .regex(/^[a-z0-9]+$/, 'a ref from the latest snapshot, like e12')
  .describe('Element ref from the latest snapshot');

export const click = defineTool({
  name: 'click',
  description:
    'Click the element with this ref. If the ref is stale it is found again by role and name; otherwise take a fresh snapshot or use interact.find.',
  input: z.object({ ref, doubleClick: z.boolean().optional() }),
  annotations: { title: 'Click', readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  needsSession: true,
  trace: { type: 'click' },
  async handle(ctx, args, response) {
    const session = await sessionOf(ctx);
    const what = await describeRef(session, args.ref);
    const outcome = await withOutcome(session, () => clickRef(session, args.ref, { double: args.doubleClick }));
    response.text(`Clicked ${what}\n${outcome}\n${await pageLine(session)}`);
  },
});

export const fill = defineTool({
  name: 'fill',
  description:
    'Fill a text field, pick an option of a select, or set a checkbox/radio (value "true"/"false") by ref. With submit, press Enter afterwards and wait for what it causes.',
  input: z.object({
    ref,
    value: z.string(),
    submit: z.boolean().optional().describe('Press Enter after filling (submits search and login forms)'),
  }),
  annotations: { title: 'Fill a field', readOnlyHint: false, destructiveHint: true },
  needsSession: true,
  trace: { type: 'fill' },
  async handle(ctx, args, response) {
    const session = await sessionOf(ctx);
    const what = await describeRef(session, args.ref);
    const filled = await fillRef(session, args.ref, args.value, { settleChoices: !args.submit });
    const outcome = args.submit ? await withOutcome(session, () => pressEnter(session, args.ref)) : filled.outcome;
    response.text(
      `${what}: ${filled.text}${args.submit ? ', then pressed Enter' : ''}${outcome ? `\n${outcome}\n${await pageLine(session)}` : ''}`,
    );
  },
});

export const fillForm = defineTool({
  name: 'fill_form',
  description:
    'Fill several fields at once, in order. Stops at the first field that fails and reports which ones were filled. With submit, submit the form of the last field and wait for what it causes.',
  input: z.object({
    fields: z.array(z.object({ ref, value: z.string() })).min(1),
    submit: z
      .boolean()
      .optional()
      .describe("Submit the last field's form (its submit button) once all fields are filled"),
  }),
  annotations: { title: 'Fill a form', readOnlyHint: false, destructiveHint: true },
  needsSession: true,
  trace: { type: 'fill' },
  async handle(ctx, args, response) {
    const session = await sessionOf(ctx);
    const done: string[] = [];
    for (const f of args.fields) {
      try {
        done.push(`${await describeRef(session, f.ref)}: ${(await fillRef(session, f.ref, f.value)).text}`);
      } catch (err) {
        const prefix = done.length ? `Filled ${done.length} field(s) before the failure:\n${done.join('\n')}\n` : '';
        throw new ToolError(`${prefix}${(err as Error).message}`, err);
      }
    }
    const last = args.fields.at(-1);
    if (!args.submit || !last) {
      response.text(done.join('\n'));
      return;
    }
    const outcome = await withOutcome(session, () => submitFrom(session, last.ref));
    response.text(`${done.join('\n')}\nSubmitted the form\n${outcome}\n${await pageLine(session)}`);
  },
});

const ACTIONS = ['hover', 'press', 'select', 'scroll', 'check', 'uncheck', 'back', 'forward'] as const;

export const interact = defineTool({
  name: 'interact',
  description:
    'Other interactions: hover (ref), press a key (key, optional ref to focus first, e.g. "Enter"), select an option (ref, value), scroll (direction up/down, or ref to scroll into view), check/uncheck (ref), back, forward.',
  input: z.object({
    action: z.enum(ACTIONS),
    ref: ref.optional(),
    key: z.string().min(1).optional().describe('For press: a key name such as Enter, Tab, ArrowDown, Control+A'),
    value: z.string().optional().describe('For select: the option value or label'),
    direction: z.enum(['up', 'down']).optional().describe('For scroll without a ref'),
  }),
  annotations: { title: 'Interact', readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  needsSession: true,
  trace: { type: 'interact' },
  async handle(ctx, args, response) {
    const session = await sessionOf(ctx);
    const page = session.page;
    const needRef = (): string => {
      if (!args.ref) throw new ToolError(`Action "${args.action}" needs a ref`);
      return args.ref;
    };
    const what = args.ref ? ` on ${await describeRef(session, args.ref)}` : '';
    let outcome: string | undefined;
    switch (args.action) {
      case 'hover':
        await (await resolveRef(session, needRef())).hover({ timeout: ACTION_TIMEOUT_MS });
        break;
      case 'press': {
        const key = args.key;
        if (!key) throw new ToolError('Action "press" needs a key');
        const target = args.ref ? await resolveRef(session, args.ref) : undefined;
        outcome = await withOutcome(session, () =>
          target ? target.press(key, { timeout: ACTION_TIMEOUT_MS }) : page.keyboard.press(key),
        );
        break;
      }
      case 'select':
        if (args.value === undefined) throw new ToolError('Action "select" needs a value');
        outcome = (await fillRef(session, needRef(), args.value, { settleChoices: true })).outcome;
        break;
      case 'scroll':
        if (args.ref)
          await (await resolveRef(session, args.ref)).scrollIntoViewIfNeeded({ timeout: ACTION_TIMEOUT_MS });
        else await page.mouse.wheel(0, args.direction === 'up' ? -600 : 600);
        break;
      case 'check':
      case 'uncheck': {
        const target = await resolveRef(session, needRef());
        outcome = await withOutcome(session, () =>
          target.setChecked(args.action === 'check', { timeout: ACTION_TIMEOUT_MS }),
        );
        break;
      }
      case 'back':
      case 'forward': {
        // Commit is enough: the settle waits for the document, and a bfcache restore has no load to wait for.
        const go = { waitUntil: 'commit' as const, timeout: NAVIGATION_TIMEOUT_MS };
        outcome = await withOutcome(session, () => (args.action === 'back' ? page.goBack(go) : page.goForward(go)));
        session.refs.clear();
        break;
      }
    }
    response.text(`Done: ${args.action}${what}${outcome ? `\n${outcome}` : ''}\n${await pageLine(session)}`);
  },
});

const words = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1);

export const interactFind = defineTool({
  name: 'interact.find',
  description:
    'Find elements matching a description (e.g. "search box", "add to cart button") and return their refs, best match first. Refreshes the ref state like snapshot.',
  input: z.object({ query: z.string().min(1), limit: z.number().int().min(1).max(20).default(5) }),
  annotations: { title: 'Find elements', readOnlyHint: true },
  needsSession: true,
  trace: { type: 'find' },
  async handle(ctx, args, response) {
    const session = await sessionOf(ctx);
    const snap = await takeSnapshot(session.page, {}, Number.MAX_SAFE_INTEGER);
    session.rememberRefs(snap.refs);
    const wanted = words(args.query);
    const roots = snap.roots;
    const scored: { line: string; score: number }[] = [];
    const visit = (nodes: SnapshotNode[]): void => {
      for (const n of nodes) {
        visit(n.children);
        if (!n.ref) continue;
        const name = new Set(words(n.name));
        const text = new Set(words(n.line));
        // Name hits weigh most; a role word ("button", "link", "textbox") in the query counts too.
        const score = wanted.reduce(
          (s, w) =>
            s +
            (name.has(w) ? 3 : text.has(w) ? 1 : 0) +
            (n.role.toLowerCase() === w || (w === 'box' && n.role === 'textbox') ? 2 : 0),
          0,
        );
        if (score > 0) scored.push({ line: `[ref=${n.ref}] ${n.role}${n.name ? ` "${n.name}"` : ''}`, score });
      }
    };
    visit(roots);
    const best = scored.sort((a, b) => b.score - a.score).slice(0, args.limit);
    response.text(
      best.length
        ? best.map((b) => b.line).join('\n')
        : `No element matches "${args.query}". Take a snapshot to see the page.`,
    );
  },
});

export const ACTION_TOOLS = [click, fill, fillForm, interact, interactFind];
