import type { Page } from 'playwright-core';

/**
 * Runs a self-contained browser-side function with a JSON argument. The function travels
 * as source text with a `__name` shim: under tsx/esbuild (the local runtime) nested
 * functions are wrapped in `__name(...)` calls that do not exist inside the page, and a
 * plain `page.evaluate(fn)` would throw a ReferenceError there.
 */
export async function evaluateIn<A, R>(page: Page, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
  const src = `(() => { const __name = (f) => f; return (${fn.toString()})(${JSON.stringify(arg) ?? 'undefined'}); })()`;
  return (await page.evaluate(src)) as R;
}
