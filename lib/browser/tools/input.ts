import type { Locator } from 'playwright-core';
import { describeError, ToolError } from '../../errors.js';
import { resolveRef } from '../refs.js';
import type { BrowserSession } from '../session.js';
import { settleAfter } from '../settle.js';
import { describeSettle } from '../settle-rules.js';
import { ACTION_TIMEOUT_MS } from './context.js';

/**
 * Element actions shared by click, fill, fill_form and interact: each goes through the
 * session's humanizer when humanization is on, else straight through Playwright.
 */
export async function describeRef(session: BrowserSession, ref: string): Promise<string> {
  const known = session.refs.get(ref);
  return known ? `${known.role}${known.name ? ` "${known.name}"` : ''}` : ref;
}

function actionError(what: string, err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  return new ToolError(
    `${what} failed: ${describeError(err)}. Take a fresh \`snapshot\` or use \`interact.find\` if the page changed.`,
    err,
  );
}

export async function clickRef(session: BrowserSession, ref: string, opts: { double?: boolean } = {}): Promise<void> {
  const target = await resolveRef(session, ref);
  try {
    if (session.humanizer && !opts.double) {
      await target.scrollIntoViewIfNeeded({ timeout: ACTION_TIMEOUT_MS });
      const box = await target.boundingBox({ timeout: ACTION_TIMEOUT_MS });
      if (!box) throw new ToolError(`Ref ${ref} is not visible`);
      await session.humanizer.click(session.page, box);
    } else if (opts.double) await target.dblclick({ timeout: ACTION_TIMEOUT_MS });
    else await target.click({ timeout: ACTION_TIMEOUT_MS });
  } catch (err) {
    throw actionError(`Click on ${ref}`, err);
  }
}

async function tagOf(target: Locator): Promise<{ tag: string; type: string }> {
  return target.evaluate(
    (el) => ({ tag: el.tagName.toLowerCase(), type: (el.getAttribute('type') ?? '').toLowerCase() }),
    undefined,
    {
      timeout: ACTION_TIMEOUT_MS,
    },
  );
}

/** Playwright's refusals for selects, checkboxes, radios and other non-text inputs. */
const NOT_FILLABLE = /is not an <input>|cannot be filled/;

const truthy = (v: string): boolean => /^(true|yes|on|1|checked)$/i.test(v.trim());

export interface Filled {
  /** "filled \"Ada\"", "selected \"de\"", "checked"… */
  text: string;
  /** What the change did to the page, for selects, checkboxes and radios when asked to wait. */
  outcome?: string;
}

/**
 * Text fields are typed into; selects pick the option; checkboxes and radios take
 * true/false. Typing has no consequence worth waiting for, but picking an option or
 * ticking a box may navigate or load data, so with `settleChoices` those wait for it.
 */
export async function fillRef(
  session: BrowserSession,
  ref: string,
  value: string,
  opts: { settleChoices?: boolean } = {},
): Promise<Filled> {
  const target = await resolveRef(session, ref);
  const choose = async (change: () => Promise<string>): Promise<Filled> => {
    if (!opts.settleChoices) return { text: await change() };
    const { value: text, report } = await settleAfter(session, change);
    return { text, outcome: describeSettle(report) };
  };
  try {
    // Text fields are the common case: fill at once and only look at the element (one more
    // round trip into the page) when Playwright says it cannot be filled.
    if (!session.humanizer) {
      try {
        await target.fill(value, { timeout: ACTION_TIMEOUT_MS });
        return { text: `filled ${JSON.stringify(value)}` };
      } catch (err) {
        if (!NOT_FILLABLE.test((err as Error).message)) throw err;
      }
    }
    const { tag, type } = await tagOf(target);
    if (tag === 'select') {
      return await choose(async () => {
        await target
          .selectOption(value, { timeout: ACTION_TIMEOUT_MS })
          .catch(() => target.selectOption({ label: value }, { timeout: ACTION_TIMEOUT_MS }));
        return `selected "${value}"`;
      });
    }
    if (type === 'checkbox' || type === 'radio') {
      return await choose(async () => {
        await target.setChecked(truthy(value), { timeout: ACTION_TIMEOUT_MS });
        return truthy(value) ? 'checked' : 'unchecked';
      });
    }
    if (session.humanizer) {
      await clickRef(session, ref);
      await target.fill('', { timeout: ACTION_TIMEOUT_MS });
      await session.humanizer.type(session.page, value);
    } else {
      await target.fill(value, { timeout: ACTION_TIMEOUT_MS });
    }
    return { text: `filled ${JSON.stringify(value)}` };
  } catch (err) {
    throw actionError(`Filling ${ref}`, err);
  }
}

/**
 * Submits the form a field belongs to the way a person would: its submit button, else
 * the form's own submit, else Enter in the field (search boxes without a form).
 */
export async function submitFrom(session: BrowserSession, ref: string): Promise<void> {
  const target = await resolveRef(session, ref);
  try {
    const submitted = await target.evaluate(
      (el) => {
        const form = (el as HTMLInputElement).form ?? el.closest('form');
        if (!form) return false;
        const button = form.querySelector<HTMLElement>(
          'button:not([type]), button[type=submit], input[type=submit], input[type=image]',
        );
        if (button) button.click();
        else form.requestSubmit();
        return true;
      },
      undefined,
      { timeout: ACTION_TIMEOUT_MS },
    );
    if (!submitted) await target.press('Enter', { timeout: ACTION_TIMEOUT_MS });
  } catch (err) {
    throw actionError(`Submitting from ${ref}`, err);
  }
}

/** Presses Enter in the field, which submits most single-field forms (search, login). */
export async function pressEnter(session: BrowserSession, ref: string): Promise<void> {
  const target = await resolveRef(session, ref);
  try {
    await target.press('Enter', { timeout: ACTION_TIMEOUT_MS });
  } catch (err) {
    throw actionError(`Pressing Enter in ${ref}`, err);
  }
}

export async function pageLine(session: BrowserSession): Promise<string> {
  return `Page: ${session.page.url()} — ${await session.page.title().catch(() => '')}`;
}
