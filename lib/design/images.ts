import type { ImageEntry } from '../tasks/design-result.js';
import type { Page } from 'playwright-core';
import type { AssetUploader } from './assets.js';
import { evaluateIn } from './evaluate.js';

export type { ImageEntry };

/** Inline SVGs at or under this rendered size are icons (icons extractor), not images. */
export const ICON_MAX_PX = 48;
const MAX_IMAGES = 300;

/**
 * Browser side. Runs after prepareDesignPage scrolled the page, so lazy images have a
 * currentSrc. CSS background images are decoded through `new Image()` to learn their
 * intrinsic size (the element box says nothing about it).
 */
async function collectImages(args: { iconMax: number; max: number }): Promise<ImageEntry[]> {
  const out: ImageEntry[] = [];
  const seen = new Set<string>();
  const push = (e: ImageEntry, key: string): void => {
    if (seen.has(key) || out.length >= args.max) return;
    seen.add(key);
    out.push(e);
  };
  const all: Element[] = [];
  const walk = (root: Element | ShadowRoot): void => {
    for (const el of root.children) {
      all.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
      walk(el);
    }
  };
  walk(document.documentElement);
  const bgUrls: string[] = [];
  for (const el of all) {
    if (el instanceof HTMLImageElement) {
      const src = el.currentSrc || el.src;
      if (!src || el.naturalWidth === 0) continue;
      const type = el.parentElement instanceof HTMLPictureElement ? 'picture' : 'img';
      push({ src, type, naturalWidth: el.naturalWidth, naturalHeight: el.naturalHeight, alt: el.alt ?? '' }, src);
    } else if (el instanceof SVGSVGElement && !el.parentElement?.closest('svg')) {
      const r = el.getBoundingClientRect();
      if (Math.max(r.width, r.height) <= args.iconMax || (el.querySelector('use') && el.children.length === 1))
        continue;
      const vb = el.viewBox.baseVal;
      const attr = (n: string): number => parseFloat(el.getAttribute(n) ?? '') || 0;
      const w = attr('width') || (vb && vb.width) || Math.round(r.width);
      const h = attr('height') || (vb && vb.height) || Math.round(r.height);
      const clone = el.cloneNode(true) as SVGSVGElement;
      clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
      const svgSource = clone.outerHTML;
      const label = el.getAttribute('aria-label') ?? el.querySelector('title')?.textContent ?? '';
      push({ src: '', type: 'svg', naturalWidth: w, naturalHeight: h, alt: label, svgSource }, svgSource);
    }
    for (const pseudo of [null, '::before', '::after']) {
      const bg = getComputedStyle(el, pseudo).backgroundImage;
      if (!bg || bg === 'none') continue;
      for (const m of bg.matchAll(/url\("?(.*?)"?\)/g)) if (m[1]) bgUrls.push(m[1]);
    }
  }
  const sizes = await Promise.all(
    [...new Set(bgUrls)].map(
      (src) =>
        new Promise<[string, number, number]>((resolve) => {
          const im = new Image();
          const t = setTimeout(() => resolve([src, 0, 0]), 3000);
          im.onload = () => {
            clearTimeout(t);
            resolve([src, im.naturalWidth, im.naturalHeight]);
          };
          im.onerror = () => {
            clearTimeout(t);
            resolve([src, 0, 0]);
          };
          im.src = src;
        }),
    ),
  );
  for (const [src, w, h] of sizes)
    if (w > 0) push({ src, type: 'background', naturalWidth: w, naturalHeight: h, alt: '' }, src);
  return out;
}

export async function extractImages(page: Page, uploader: AssetUploader): Promise<{ images: ImageEntry[] }> {
  const images = await evaluateIn(page, collectImages, { iconMax: ICON_MAX_PX, max: MAX_IMAGES });
  await Promise.all(
    images.map(async (img) => {
      const up = img.svgSource
        ? await uploader.fromText('images', img.svgSource)
        : await uploader.fromUrl('images', img.src);
      if (img.src) img.originalSrc = img.src;
      if (up) Object.assign(img, { s3Key: up.s3Key, downloadUrl: up.downloadUrl });
    }),
  );
  return { images };
}
