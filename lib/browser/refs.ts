import type { Locator } from 'playwright-core';
import { StaleRefError, ToolError } from '../errors.js';
import type { BrowserSession } from './session.js';

/**
 * Resolves a snapshot ref to a locator. Refs are only valid for the latest snapshot of a
 * page; after a re-render or navigation, the element is looked up again by the role and
 * name it had when the ref was issued, as long as exactly one element still matches.
 */
type AriaRole = Parameters<import('playwright-core').Page['getByRole']>[0];

export async function resolveRef(session: BrowserSession, ref: string): Promise<Locator> {
  const page = session.page;
  const direct = page.getByRef(ref);
  if ((await direct.count().catch(() => 0)) === 1) return direct;
  const known = session.refs.get(ref);
  if (!known) {
    throw new ToolError(
      `Unknown ref ${ref}. Take a \`snapshot\` first and use a ref from it, or use \`interact.find\`.`,
    );
  }
  if (!known.name) throw new StaleRefError(ref, `the ${known.role} had no accessible name to find it again`);
  const byRole = page.getByRole(known.role as AriaRole, { name: known.name, exact: true });
  const count = await byRole.count().catch(() => 0);
  if (count === 1) return byRole;
  throw new StaleRefError(
    ref,
    count === 0
      ? `no ${known.role} named "${known.name}" is on the page any more`
      : `${count} elements are now ${known.role} "${known.name}"`,
  );
}
