import type { Page } from 'playwright-core';
import { describeError } from '../errors.js';
import type { DesignResults, ExtractorName } from '../tasks/design-result.js';
import type { AssetStore } from './asset-store.js';
import { guardedFetch } from '../browser/network/fetch.js';
import type { NetworkPolicy } from '../browser/network/guard.js';
import { AssetUploader, type AssetFailureListener, type GuardedGet } from './assets.js';
import { capInlineFields } from './inline-cap.js';
import { evaluateIn } from './evaluate.js';
import { extractColors } from './colors.js';
import { extractFonts } from './fonts.js';
import { extractIcons } from './icons.js';
import { extractImages } from './images.js';
import { extractLogo } from './logo.js';
import { extractTokens } from './tokens.js';

/** Upper bound on the settle waits after load: fonts and late requests rarely need more, and design tasks must stay fast. */
const SETTLE_MS = 2500;
/** A page whose `load` never comes (a resource that streams forever) is still extracted after this. */
const LOAD_CAP_MS = 5000;
const MAX_SCROLL_STEPS = 25;

/**
 * Navigates and brings the page to the state a visitor sees: web fonts loaded, network
 * quiet (bounded), lazy images triggered by scrolling through the page, then back to the
 * top so header positions are measured where they belong.
 */
export async function prepareDesignPage(page: Page, url: string, opts: { timeoutMs: number }): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  const left = (cap: number): number => Math.max(100, Math.min(cap, deadline - Date.now()));
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: opts.timeoutMs });
  await page.waitForLoadState('load', { timeout: left(LOAD_CAP_MS) }).catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: left(SETTLE_MS) }).catch(() => undefined);
  // networkidle costs at least 500 ms of quiet; a page that was not scrolled started no new
  // requests but its eager images, which the settle step below waits for anyway.
  if (await evaluateIn(page, scrollThrough, MAX_SCROLL_STEPS)) {
    await page.waitForLoadState('networkidle', { timeout: left(SETTLE_MS) }).catch(() => undefined);
  }
  await evaluateIn(page, settleAndReturnToTop, left(SETTLE_MS)).catch(() => undefined);
}

/**
 * Browser side: scrolls a viewport at a time so lazy loaders (native and IntersectionObserver)
 * fire. Resolves whether it scrolled, that is whether script-driven loaders may have started.
 */
async function scrollThrough(steps: number): Promise<boolean> {
  // Native lazy loading would wait for each image to near the viewport; eager is equivalent and quicker.
  for (const img of document.querySelectorAll('img[loading="lazy"]')) (img as HTMLImageElement).loading = 'eager';
  // Scrolling only matters to script-driven lazy loaders; a page with none of their marks (most
  // documentation, long articles) is not walked through a viewport at a time.
  const scripted = document.querySelector(
    '[data-src],[data-srcset],[data-lazy],[data-bg],[data-background],.lazy,.lazyload,.lazyloaded,[class*="lazy"]',
  );
  if (!scripted) return false;
  const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < steps; i++) {
    const before = scrollY;
    window.scrollBy(0, innerHeight);
    await pause(60);
    if (scrollY === before || scrollY + innerHeight >= document.documentElement.scrollHeight) break;
  }
  await pause(60);
  return true;
}

/** Browser side: waits (bounded) for fonts and pending images, then scrolls back to the top. */
async function settleAndReturnToTop(ms: number): Promise<void> {
  const imgs = [...document.images].filter((i) => !i.complete);
  const loaded = Promise.all(imgs.map((i) => new Promise((r) => ((i.onload = r), (i.onerror = r)))));
  await Promise.race([Promise.all([document.fonts.ready, loaded]), new Promise((r) => setTimeout(r, ms))]);
  window.scrollTo(0, 0);
}

/** How one extractor went, for the task's step trace. */
export interface ExtractorRun {
  name: ExtractorName;
  ms: number;
  ok: boolean;
  /** What it found ("12 images") or why it failed. */
  summary: string;
}

const FOUND: Record<ExtractorName, (r: Record<string, unknown>) => string> = {
  images: (r) => `${(r.images as unknown[] | undefined)?.length ?? 0} images`,
  fonts: (r) => `${(r.fonts as unknown[] | undefined)?.length ?? 0} font families`,
  colors: (r) =>
    `${(r.colors as unknown[] | undefined)?.length ?? 0} colors, ${(r.contrastIssues as unknown[] | undefined)?.length ?? 0} contrast issues`,
  icons: (r) => `${(r.icons as unknown[] | undefined)?.length ?? 0} icons`,
  tokens: (r) => `${((r.tokens as { cssVariables?: unknown[] } | undefined)?.cssVariables ?? []).length} CSS variables`,
  logo: (r) =>
    (r.logo as { found?: boolean; type?: string } | undefined)?.found
      ? `a ${(r.logo as { type?: string }).type} logo`
      : 'no logo',
};

/**
 * Runs the requested extractors one after another on a prepared page. Each is isolated:
 * one that throws reports `{ error }` under its own key and the others still run.
 */
export async function extractDesign(
  page: Page,
  opts: {
    url: string;
    extractors: ExtractorName[];
    assets?: AssetStore;
    assetPrefix: string;
    /** The network policy for everything fetched outside the page (assets, cross-origin stylesheets). */
    network: NetworkPolicy;
    /** Told about every asset that could not be downloaded or stored, so an outage is seen, not just missing links. */
    onAssetFailure?: AssetFailureListener;
  },
): Promise<{ results: DesignResults; inPageMs: number; runs: ExtractorRun[] }> {
  const started = performance.now();
  const get: GuardedGet = (url, o) => guardedFetch(opts.network, url, o);
  const uploader = new AssetUploader(opts.assets, opts.assetPrefix, get, opts.onAssetFailure);
  const run: { [K in ExtractorName]-?: () => Promise<NonNullable<DesignResults[K]>> } = {
    images: () => extractImages(page, uploader),
    fonts: () => extractFonts(page, uploader),
    colors: () => extractColors(page),
    icons: () => extractIcons(page, uploader),
    tokens: () => extractTokens(page),
    logo: () => extractLogo(page, uploader),
  };
  const results: DesignResults = {};
  const runs: ExtractorRun[] = [];
  for (const name of new Set(opts.extractors)) {
    const t0 = performance.now();
    try {
      const r = await run[name]();
      Object.assign(results, { [name]: r });
      runs.push({
        name,
        ms: Math.round(performance.now() - t0),
        ok: true,
        summary: FOUND[name](r as Record<string, unknown>),
      });
    } catch (err) {
      const error = `${name} extractor failed: ${describeError(err)}`;
      Object.assign(results, { [name]: { error } });
      runs.push({ name, ms: Math.round(performance.now() - t0), ok: false, summary: error });
    }
  }
  capInlineFields(results as Record<string, unknown>);
  return { results, inPageMs: Math.round(performance.now() - started), runs };
}
