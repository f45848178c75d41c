import type { Page } from 'playwright-core';
import * as z from 'zod';
import type { ProbeReading } from './settle-rules.js';

/**
 * The page side of settling: a MutationObserver counting DOM changes, and a watch on
 * `setTimeout` so a click whose handler says "navigate in 150 ms" is waited for exactly
 * that long, while a click that schedules nothing answers at once. Only timers scheduled
 * while an action is watched (and up to two generations of timers those schedule) count,
 * and only short ones: a toast hidden after 3 s must not hold a tool.
 *
 * Installed once per document on the first action, in the page's own world (Playwright
 * exposes no isolated world for scripts), kept inconspicuous: the state lives under a
 * non-enumerable symbol, and `setTimeout` is wrapped in a Proxy, which keeps its name,
 * its length and a "[native code]" body. A script comparing the exact source text would
 * still see "function () { [native code] }" without the name: the price of knowing
 * which timers an action scheduled.
 *
 * Strings, not functions, so the TS toolchain's helpers never leak into the page.
 */
const STATE = `Symbol.for('bts.settle')`;

/** Arms the probe for a new action: `tracking` opens the window in which timers count. */
const ARM = `((track) => {
  const KEY = ${STATE};
  const MAX_DELAY_MS = 1000, MAX_GENERATION = 3;
  let s = window[KEY];
  if (!s) {
    s = { epoch: 0, tracking: false, generation: 0, mutations: 0, last: performance.now(), timers: new Map() };
    Object.defineProperty(window, KEY, { value: s, enumerable: false });
    new MutationObserver((records) => { s.mutations += records.length; s.last = performance.now(); })
      .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const realSet = window.setTimeout, realClear = window.clearTimeout;
    window.setTimeout = new Proxy(realSet, { apply(target, self, args) {
      const [fn, delay] = args;
      const generation = s.generation > 0 ? s.generation + 1 : s.tracking ? 1 : 0;
      if (typeof fn !== 'function' || generation === 0 || generation > MAX_GENERATION || !(Number(delay) < MAX_DELAY_MS)) return Reflect.apply(target, self, args);
      const epoch = s.epoch;
      let id;
      const wrapped = function (...a) {
        if (s.epoch === epoch) { s.timers.delete(id); s.last = performance.now(); }
        const outer = s.generation;
        s.generation = s.epoch === epoch ? generation : 0;
        try { return fn.apply(this, a); } finally { s.generation = outer; }
      };
      id = Reflect.apply(target, self, [wrapped, ...args.slice(1)]);
      s.timers.set(id, true);
      return id;
    } });
    window.clearTimeout = new Proxy(realClear, { apply(target, self, args) { s.timers.delete(args[0]); return Reflect.apply(target, self, args); } });
  }
  if (track) { s.epoch += 1; s.timers.clear(); s.mutations = 0; s.last = performance.now(); }
  s.tracking = track;
  return true;
})`;

const READ = `((stopTracking) => {
  const s = window[${STATE}];
  if (!s) return null;
  if (stopTracking) s.tracking = false;
  return { mutations: s.mutations, timers: s.timers.size, quietForMs: performance.now() - s.last };
})`;

const ReadingSchema = z.object({ mutations: z.number(), timers: z.number(), quietForMs: z.number() }).nullable();

/** A probe call that hangs (a document being replaced) must not outlast the settle cap. */
async function bounded<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts watching the current document for one action; false when the page cannot run scripts now. */
export async function armProbe(page: Page, track: boolean, timeoutMs: number): Promise<boolean> {
  const ok = await bounded(
    page.evaluate(`${ARM}(${track})`).then(
      () => true,
      () => false,
    ),
    timeoutMs,
  );
  return ok === true;
}

/**
 * Reads the probe; undefined when the document has none (it was replaced) or did not
 * answer in time. `stopTracking` closes the window in which new timers count.
 */
export async function readProbe(
  page: Page,
  stopTracking: boolean,
  timeoutMs: number,
): Promise<ProbeReading | null | undefined> {
  const raw = await bounded(
    page.evaluate(`${READ}(${stopTracking})`).catch(() => undefined),
    timeoutMs,
  );
  if (raw === undefined) return undefined;
  const parsed = ReadingSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
