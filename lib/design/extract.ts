import type { Page } from 'playwright-core';
import { describeError } from '../errors.js';
import type { DesignResults, ExtractorName } from '../tasks/design-result.js';
import type { AssetStore } from './asset-store.js';
import { AssetUploader, type AssetFailureListener } from './assets.js';
import { evaluateIn } from './evaluate.js';
import { extractColors } from './colors.js';
import { extractFonts } from './fonts.js';
import { extractIcons } from './icons.js';
import { extractImages } from './images.js';
import { extractLogo } from './logo.js';
import { extractTokens } from './tokens.js';

/** Upper bound on the settle waits after load: fonts and late requests rarely need more, and design tasks must stay fast. */
const SETTLE_MS = 2500;
const MAX_SCROLL_STEPS = 25;

/**
 * Navigates and brings the page to the state a visitor sees: web fonts loaded, network
 * quiet (bounded), lazy images triggered by scrolling through the page, then back to the
 * top so header positions are measured where they belong.
 */
export async function prepareDesignPage(page: Page, url: string, opts: { timeoutMs: number }): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  const left = (cap: number): number => Math.max(100, Math.min(cap, deadline - Date.now()));
  await page.goto(url, { waitUntil: 'load', timeout: opts.timeoutMs });
  await page.waitForLoadState('networkidle', { timeout: left(SETTLE_MS) }).catch(() => undefined);
  await evaluateIn(page, scrollThrough, MAX_SCROLL_STEPS);
  await page.waitForLoadState('networkidle', { timeout: left(SETTLE_MS) }).catch(() => undefined);
  await evaluateIn(page, settleAndReturnToTop, left(SETTLE_MS)).catch(() => undefined);
}

/** Browser side: scrolls a viewport at a time so lazy loaders (native and IntersectionObserver) fire. */
async function scrollThrough(steps: number): Promise<void> {
  // Native lazy loading would wait for each image to near the viewport; eager is equivalent and quicker.
  for (const img of document.querySelectorAll('img[loading="lazy"]')) (img as HTMLImageElement).loading = 'eager';
  const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < steps; i++) {
    const before = scrollY;
    window.scrollBy(0, innerHeight);
    await pause(60);
    if (scrollY === before || scrollY + innerHeight >= document.documentElement.scrollHeight) break;
  }
  await pause(60);
}

/** Browser side: waits (bounded) for fonts and pending images, then scrolls back to the top. */
async function settleAndReturnToTop(ms: number): Promise<void> {
  const imgs = [...document.images].filter((i) => !i.complete);
  const loaded = Promise.all(imgs.map((i) => new Promise((r) => ((i.onload = r), (i.onerror = r)))));
  await Promise.race([Promise.all([document.fonts.ready, loaded]), new Promise((r) => setTimeout(r, ms))]);
  window.scrollTo(0, 0);
}

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
    /** Network policy for asset downloads, which do not pass the browser's routes. */
    allowUrl?: (url: string) => Promise<boolean>;
    /** Told about every asset that could not be stored, so a storage outage is seen, not just missing links. */
    onAssetFailure?: AssetFailureListener;
  },
): Promise<{ results: DesignResults; inPageMs: number }> {
  const started = performance.now();
  const uploader = new AssetUploader(page, opts.assets, opts.assetPrefix, opts.allowUrl, opts.onAssetFailure);
  const run: { [K in ExtractorName]-?: () => Promise<NonNullable<DesignResults[K]>> } = {
    images: () => extractImages(page, uploader),
    fonts: () => extractFonts(page, uploader),
    colors: () => extractColors(page),
    icons: () => extractIcons(page, uploader),
    tokens: () => extractTokens(page),
    logo: () => extractLogo(page, uploader),
  };
  const settle = async (name: ExtractorName): Promise<DesignResults[ExtractorName]> => {
    try {
      return await run[name]();
    } catch (err) {
      return { error: `${name} extractor failed: ${describeError(err)}` };
    }
  };
  const results: DesignResults = {};
  for (const name of new Set(opts.extractors)) Object.assign(results, { [name]: await settle(name) });
  return { results, inPageMs: Math.round(performance.now() - started) };
}
