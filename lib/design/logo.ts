import type { LogoResult } from '../tasks/design-result.js';
import type { Page } from 'playwright-core';
import type { AssetUploader } from './assets.js';
import { pickLogo, type LogoCandidate } from './logo-score.js';
import { evaluateIn } from './evaluate.js';

export type { LogoResult };

/** Browser side: every image, inline SVG and background-image element, with the features scoreLogo weighs; plus a text wordmark, if the header has one. */
export function collectLogoCandidates(): { candidates: LogoCandidate[]; wordmark: Wordmark | null } {
  const out: LogoCandidate[] = [];
  const here = location.hostname;
  const meta = (sel: string): string => document.querySelector<HTMLMetaElement>(sel)?.content ?? '';
  const siteName = (
    meta('meta[property="og:site_name"]') ||
    meta('meta[name="application-name"]') ||
    document.title.split(/\s[|\-–—:]\s/)[0] ||
    ''
  )
    .trim()
    .toLowerCase();
  const up = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null);
  const ancestors = (el: Element, max: number): Element[] => {
    const list: Element[] = [];
    for (let e = up(el); e && list.length < max; e = up(e)) list.push(e);
    return list;
  };
  const label = (e: Element): string =>
    [
      typeof e.className === 'string' ? e.className : (e.getAttribute('class') ?? ''),
      e.id,
      e.getAttribute('aria-label') ?? '',
      e.getAttribute('alt') ?? '',
      e.getAttribute('title') ?? '',
    ]
      .join(' ')
      .toLowerCase();
  // Class and id words of controls; matched on the candidate, its link and its parent only.
  const CONTROL =
    /(^|[\s_-])(toggle|toggler|menu|hamburger|burger|search|theme|darkmode|dark-mode|close|dropdown|switch)([\s_-]|$)/;
  const WALL = /partner|sponsor|client|customer|trusted|as-seen|featured|integration|backers|supporters/;
  // Container names of consent banners; a bare "cookie" would also hit bakeries named Cookie Co.
  const COOKIE = /cookie[-_\s]?(banner|consent|notice|bar|popup|modal|law|wall)|consent|gdpr|\bcmp\b|onetrust/;
  const isHome = (a: HTMLAnchorElement | null): boolean => {
    if (!a) return false;
    try {
      const u = new URL(a.href, location.href);
      // Home is the site root, or this very page when the logo links to itself (a homepage).
      const norm = (p: string): string => p.replace(/\/index\.\w+$/, '/');
      return (
        u.hostname === here && (norm(u.pathname) === '/' || (norm(u.pathname) === norm(location.pathname) && !u.hash))
      );
    } catch {
      return false;
    }
  };
  const consider = (
    el: Element,
    kind: LogoCandidate['kind'],
    src: string,
    nat: [number, number],
    svgSource?: string,
  ): void => {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    const anc = ancestors(el, 12);
    const near = [el, ...anc.slice(0, 3)];
    const link =
      el.closest('a') ?? (anc.find((a) => a instanceof HTMLAnchorElement) as HTMLAnchorElement | undefined) ?? null;
    const file = src && !src.startsWith('data:') ? ((src.split(/[?#]/)[0] ?? '').split('/').pop() ?? '') : '';
    const alt =
      el.getAttribute('alt') ??
      el.getAttribute('aria-label') ??
      el.querySelector('title')?.textContent ??
      link?.getAttribute('aria-label') ??
      '';
    const hint = [...near.map(label), file.toLowerCase(), link ? label(link) : ''].join(' ');
    // A wall is a container close above the candidate holding four or more marks of about its height.
    const h = r.height || 1;
    const wallGroup = anc
      .slice(0, 3)
      .find(
        (a) =>
          !/^(BODY|HTML|MAIN|HEADER)$/.test(a.tagName) &&
          [...a.querySelectorAll('img,svg')].filter((m) => Math.abs(m.getBoundingClientRect().height - h) <= 0.3 * h)
            .length >= 4,
      );
    const inWall =
      wallGroup !== undefined ||
      anc
        .slice(0, 6)
        .some(
          (a) =>
            !/^(BODY|HTML|MAIN)$/.test(a.tagName) &&
            (WALL.test(label(a)) || WALL.test((a.querySelector('h1,h2,h3,h4')?.textContent ?? '').toLowerCase())),
        );
    const inControl =
      Boolean(el.closest('button,[role=button],[role=switch],[role=menuitem],[role=tab],label,summary,select')) ||
      [el, link, el.parentElement].some((e) => e !== null && CONTROL.test(label(e)));
    const hop = (e: Element | null): Element | null => e?.nextElementSibling ?? null;
    const besideHome =
      !link &&
      [hop(el), hop(el.parentElement)].some(
        (e) => e !== null && isHome(e instanceof HTMLAnchorElement ? e : e.querySelector('a')),
      );
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
      visible:
        cs.visibility !== 'hidden' &&
        parseFloat(cs.opacity) > 0 &&
        r.width > 0 &&
        !anc.some((a) => getComputedStyle(a).display === 'none'),
      inHeader: anc.some(
        (a) =>
          /^(HEADER)$/.test(a.tagName) ||
          a.getAttribute('role') === 'banner' ||
          /header|navbar|masthead|topbar/.test(label(a)),
      ),
      inFooter: anc.some(
        (a) => a.tagName === 'FOOTER' || a.getAttribute('role') === 'contentinfo' || /footer/.test(label(a)),
      ),
      linksHome: isHome(link),
      hint,
      sameDomain,
      mentionsSiteName:
        siteName.length > 1 &&
        (alt.toLowerCase().includes(siteName) || file.toLowerCase().includes(siteName.replace(/\s+/g, '-'))),
      inCookieBanner: anc.some((a) => {
        if (/^(BODY|HTML|HEADER|MAIN)$/.test(a.tagName)) return false;
        const overlay =
          /dialog|region|alert/.test(a.getAttribute('role') ?? '') || /fixed|sticky/.test(getComputedStyle(a).position);
        return COOKIE.test(label(a)) || (overlay && /cookie|consent/i.test(a.textContent ?? ''));
      }),
      inPartnerWall: inWall,
      inControl,
      besideHome,
      viewportArea: innerWidth * innerHeight,
    });
  };
  const walk = (root: Element | ShadowRoot): void => {
    for (const el of root.children) {
      if (el instanceof HTMLImageElement && (el.currentSrc || el.src))
        consider(el, 'img', el.currentSrc || el.src, [el.naturalWidth, el.naturalHeight]);
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
  return { candidates: out, wordmark: findWordmark(siteName, isHome) };

  /** A brand set in type: the header's home link or brand element, short text, no image of any size. */
  function findWordmark(site: string, home: (a: HTMLAnchorElement | null) => boolean): Wordmark | null {
    const BRAND = '.navbar-brand,.brand,.site-title,.site-name,.logo,#projectname,[class*="brand"],[class*="logo"]';
    const els = [
      ...document.querySelectorAll<HTMLElement>(`${BRAND},header a[href],nav a[href],[role=banner] a[href]`),
    ];
    for (const e of els) {
      const r = e.getBoundingClientRect();
      const text = (e.innerText || e.textContent || '').replace(/\s+/g, ' ').trim();
      if (r.width === 0 || r.top + scrollY > 150 || text.length < 2 || text.length > 40) continue;
      if ([...e.querySelectorAll('img,svg')].some((m) => m.getBoundingClientRect().width > 20)) continue;
      const a = e instanceof HTMLAnchorElement ? e : e.closest('a');
      const branded =
        e.matches(BRAND) ||
        (a !== null && home(a) && (site.length < 2 || text.toLowerCase().includes(site.split(/\s/)[0] ?? site)));
      if (branded) return { text, width: Math.round(r.width), height: Math.round(r.height) };
    }
    return null;
  }
}

export interface Wordmark {
  text: string;
  width: number;
  height: number;
}

export async function extractLogo(page: Page, uploader: AssetUploader): Promise<{ logo: LogoResult }> {
  const { candidates, wordmark } = await evaluateIn(page, collectLogoCandidates, null);
  const best = pickLogo(candidates);
  if (!best)
    return {
      logo: wordmark
        ? { found: true, type: 'text', alt: wordmark.text, width: wordmark.width, height: wordmark.height }
        : { found: false },
    };
  const logo: LogoResult = {
    found: true,
    type: best.kind,
    width: best.naturalWidth || best.width,
    height: best.naturalHeight || best.height,
    alt: best.alt,
  };
  if (best.src) Object.assign(logo, { src: best.src, originalSrc: best.src });
  if (best.svgSource) logo.svgSource = best.svgSource;
  const up = best.svgSource
    ? await uploader.fromText('logo', best.svgSource)
    : await uploader.fromUrl('logo', best.src);
  if (up) Object.assign(logo, { s3Key: up.s3Key, downloadUrl: up.downloadUrl });
  return { logo };
}
