import type { Page } from 'playwright-core';
import type { AssetUploader } from './assets.js';
import { pickLogo, type LogoCandidate } from './logo-score.js';

export interface LogoResult {
  found: boolean;
  src?: string;
  type?: LogoCandidate['kind'];
  width?: number;
  height?: number;
  svgSource?: string;
  alt?: string;
  originalSrc?: string;
  downloadUrl?: string;
  s3Key?: string;
}

/** Browser side: every image, inline SVG and background-image element, with the features scoreLogo weighs. */
function collectLogoCandidates(): LogoCandidate[] {
  const out: LogoCandidate[] = [];
  const here = location.hostname;
  const meta = (sel: string): string => document.querySelector<HTMLMetaElement>(sel)?.content ?? '';
  const siteName = (meta('meta[property="og:site_name"]') || meta('meta[name="application-name"]') || document.title.split(/\s[|\-–—:]\s/)[0] || '').trim().toLowerCase();
  const up = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null);
  const ancestors = (el: Element, max: number): Element[] => {
    const list: Element[] = [];
    for (let e = up(el); e && list.length < max; e = up(e)) list.push(e);
    return list;
  };
  const label = (e: Element): string => [typeof e.className === 'string' ? e.className : e.getAttribute('class') ?? '', e.id, e.getAttribute('aria-label') ?? '', e.getAttribute('alt') ?? '', e.getAttribute('title') ?? ''].join(' ').toLowerCase();
  const WALL = /partner|sponsor|client|customer|trusted|as-seen|featured|integration|backers|supporters/;
  const COOKIE = /cookie|consent|gdpr|\bcmp\b|onetrust/;
  const isHome = (a: HTMLAnchorElement | null): boolean => {
    if (!a) return false;
    try {
      const u = new URL(a.href, location.href);
      return u.hostname === here && /^\/(index\.\w+)?$/.test(u.pathname.replace(/\/[^/]*\/index\.html$/, '/'));
    } catch {
      return false;
    }
  };
  const consider = (el: Element, kind: LogoCandidate['kind'], src: string, nat: [number, number], svgSource?: string): void => {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    const anc = ancestors(el, 12);
    const near = [el, ...anc.slice(0, 3)];
    const link = el.closest('a') ?? (anc.find((a) => a instanceof HTMLAnchorElement) as HTMLAnchorElement | undefined) ?? null;
    const file = src && !src.startsWith('data:') ? (src.split(/[?#]/)[0] ?? '').split('/').pop() ?? '' : '';
    const alt = el.getAttribute('alt') ?? el.getAttribute('aria-label') ?? el.querySelector('title')?.textContent ?? link?.getAttribute('aria-label') ?? '';
    const hint = [...near.map(label), file.toLowerCase(), link ? label(link) : ''].join(' ');
    const wallGroup = anc.slice(0, 5).find((a) => a.querySelectorAll('img,svg').length >= 4);
    const inWall = anc.slice(0, 6).some((a) => WALL.test(label(a)) || WALL.test((a.querySelector('h1,h2,h3,h4')?.textContent ?? '').toLowerCase())) || (wallGroup !== undefined && !wallGroup.closest('header'));
    let sameDomain = true;
    if (src && !src.startsWith('data:')) {
      try {
        sameDomain = new URL(src).hostname === here;
      } catch {
        sameDomain = false;
      }
    }
    out.push({
      kind,
      src,
      svgSource,
      alt: alt.trim(),
      width: Math.round(r.width),
      height: Math.round(r.height),
      naturalWidth: nat[0],
      naturalHeight: nat[1],
      top: Math.round(r.top + scrollY),
      left: Math.round(r.left + scrollX),
      visible: cs.visibility !== 'hidden' && parseFloat(cs.opacity) > 0 && r.width > 0 && !anc.some((a) => getComputedStyle(a).display === 'none'),
      inHeader: anc.some((a) => /^(HEADER)$/.test(a.tagName) || a.getAttribute('role') === 'banner' || /header|navbar|masthead|topbar/.test(label(a))),
      inFooter: anc.some((a) => a.tagName === 'FOOTER' || a.getAttribute('role') === 'contentinfo' || /footer/.test(label(a))),
      linksHome: isHome(link),
      hint,
      sameDomain,
      mentionsSiteName: siteName.length > 1 && (alt.toLowerCase().includes(siteName) || file.toLowerCase().includes(siteName.replace(/\s+/g, '-'))),
      inCookieBanner: [el, ...anc].some((a) => COOKIE.test(label(a)) || (/dialog/.test(a.getAttribute('role') ?? '') && /cookie/i.test(a.textContent ?? ''))),
      inPartnerWall: inWall,
      viewportArea: innerWidth * innerHeight,
    });
  };
  const walk = (root: Element | ShadowRoot): void => {
    for (const el of root.children) {
      if (el instanceof HTMLImageElement && (el.currentSrc || el.src)) consider(el, 'img', el.currentSrc || el.src, [el.naturalWidth, el.naturalHeight]);
      else if (el instanceof SVGSVGElement) {
        if (!el.parentElement?.closest('svg')) {
          const clone = el.cloneNode(true) as SVGSVGElement;
          clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
          const r = el.getBoundingClientRect();
          consider(el, 'svg', '', [Math.round(r.width), Math.round(r.height)], clone.outerHTML);
        }
        continue;
      } else {
        const bg = /url\("?(.*?)"?\)/.exec(getComputedStyle(el).backgroundImage)?.[1];
        if (bg && /logo|brand/.test(label(el))) consider(el, 'background', bg, [0, 0]);
      }
      if (el.shadowRoot) walk(el.shadowRoot);
      walk(el);
    }
  };
  walk(document.documentElement);
  return out;
}

export async function extractLogo(page: Page, uploader: AssetUploader): Promise<{ logo: LogoResult }> {
  const best = pickLogo(await page.evaluate(collectLogoCandidates));
  if (!best) return { logo: { found: false } };
  const logo: LogoResult = {
    found: true,
    type: best.kind,
    width: best.naturalWidth || best.width,
    height: best.naturalHeight || best.height,
    alt: best.alt,
  };
  if (best.src) Object.assign(logo, { src: best.src, originalSrc: best.src });
  if (best.svgSource) logo.svgSource = best.svgSource;
  const up = best.svgSource ? await uploader.fromText('logo', best.svgSource, 'image/svg+xml') : await uploader.fromUrl('logo', best.src);
  if (up) Object.assign(logo, { s3Key: up.s3Key, downloadUrl: up.downloadUrl });
  return { logo };
}
