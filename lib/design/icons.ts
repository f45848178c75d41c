import type { IconEntry } from '../tasks/design-result.js';
import type { Page } from 'playwright-core';
import { sha, type AssetUploader } from './assets.js';
import { evaluateIn } from './evaluate.js';

export type { IconEntry };
export type IconStyle = IconEntry['style'];
interface IconUse {
  kind: IconEntry['kind'];
  canon: string;
  source: string;
  size: number;
  style: IconStyle;
}

/**
 * Browser side. SVG icons (inline, or `<use>` references into same-document or external
 * sprites, fetched through the page) become standalone markup plus a canonical geometry
 * string, so the same glyph hashes the same wherever and however it is drawn. Icon fonts
 * are found from pseudo-element content in the Private Use Area (Font Awesome style) and
 * from ligature fonts (Material Icons/Symbols).
 */
async function collectIcons(iconMax: number): Promise<IconUse[]> {
  const out: IconUse[] = [];
  const GEOM = [
    'viewBox',
    'd',
    'cx',
    'cy',
    'r',
    'rx',
    'ry',
    'x',
    'y',
    'width',
    'height',
    'x1',
    'y1',
    'x2',
    'y2',
    'points',
    'transform',
    'fill-rule',
  ];
  const SHAPES = 'path,circle,rect,ellipse,line,polyline,polygon';
  const canon = (root: Element): string => {
    const parts = [`vb:${root.getAttribute('viewBox') ?? ''}`];
    for (const el of root.querySelectorAll(SHAPES)) {
      const attrs = GEOM.map((a) => el.getAttribute(a)).map((v, i) =>
        v === null ? '' : `${GEOM[i]}=${v.replace(/\s+/g, ' ').trim()}`,
      );
      parts.push(`${el.tagName.toLowerCase()}(${attrs.filter(Boolean).join(';')})`);
    }
    return parts.join('|');
  };
  const paint = (el: Element, prop: 'fill' | 'stroke', rendered: boolean, fallback: string): string => {
    if (rendered) return getComputedStyle(el)[prop];
    for (let e: Element | null = el; e; e = e.parentElement) {
      const v = (e as SVGElement).style?.[prop] || e.getAttribute(prop);
      if (v) return v;
    }
    return fallback;
  };
  const styleOf = (root: Element, rendered: boolean, host: CSSStyleDeclaration): IconStyle => {
    const fills = new Set<string>();
    let strokes = 0;
    let translucent = 0;
    let opaque = 0;
    const shapes = [...root.querySelectorAll(SHAPES)];
    for (const s of shapes) {
      const fill = paint(s, 'fill', rendered, host.fill);
      const stroke = paint(s, 'stroke', rendered, host.stroke);
      const op = parseFloat(
        s.getAttribute('opacity') ?? s.getAttribute('fill-opacity') ?? (rendered ? getComputedStyle(s).opacity : '1'),
      );
      if (fill !== 'none') {
        fills.add(fill);
        if (op < 1) translucent += 1;
        else opaque += 1;
      }
      if (stroke !== 'none' && stroke !== '') strokes += 1;
    }
    if (fills.size >= 2 || (translucent > 0 && opaque > 0)) return 'duotone';
    if (fills.size === 0 && strokes > 0) return 'outline';
    return 'filled';
  };
  const sprites = new Map<string, Promise<Document | undefined>>();
  const loadSprite = (url: string): Promise<Document | undefined> => {
    let p = sprites.get(url);
    if (!p) {
      p = fetch(url)
        .then((r) => (r.ok ? r.text() : ''))
        .then((t) => (t ? new DOMParser().parseFromString(t, 'image/svg+xml') : undefined))
        .catch(() => undefined);
      sprites.set(url, p);
    }
    return p;
  };
  const svgs: SVGSVGElement[] = [];
  const fontEls: Element[] = [];
  const walk = (root: Element | ShadowRoot): void => {
    for (const el of root.children) {
      if (el instanceof SVGSVGElement) {
        if (!el.parentElement?.closest('svg')) svgs.push(el);
        continue;
      }
      fontEls.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
      walk(el);
    }
  };
  walk(document.documentElement);
  for (const svg of svgs) {
    const r = svg.getBoundingClientRect();
    const size = Math.round(Math.max(r.width, r.height));
    const host = getComputedStyle(svg);
    if (size === 0 || size > iconMax || host.display === 'none' || host.visibility === 'hidden') continue;
    const use = svg.querySelector('use');
    if (use) {
      const href = use.getAttribute('href') ?? use.getAttribute('xlink:href') ?? '';
      const [file = '', id = ''] = href.split('#');
      const doc = file ? await loadSprite(new URL(file, document.baseURI).href) : undefined;
      const rootNode = svg.getRootNode() as Document | ShadowRoot;
      const target = doc ? doc.getElementById(id) : (rootNode.getElementById?.(id) ?? document.getElementById(id));
      if (!target) continue;
      const standalone = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      standalone.setAttribute('viewBox', target.getAttribute('viewBox') ?? svg.getAttribute('viewBox') ?? '0 0 24 24');
      for (const a of ['fill', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin']) {
        const v = target.getAttribute(a);
        if (v) standalone.setAttribute(a, v);
      }
      standalone.innerHTML = target.innerHTML;
      standalone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
      out.push({
        kind: 'sprite',
        canon: canon(standalone),
        source: standalone.outerHTML,
        size,
        style: styleOf(doc ? standalone : target, false, host),
      });
    } else {
      const clone = svg.cloneNode(true) as SVGSVGElement;
      clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
      out.push({ kind: 'svg', canon: canon(svg), source: clone.outerHTML, size, style: styleOf(svg, true, host) });
    }
  }
  const pua = (t: string): boolean => {
    const chars = [...t];
    return (
      chars.length > 0 &&
      chars.length <= 2 &&
      chars.every((c) => {
        const cp = c.codePointAt(0) ?? 0;
        return (cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000;
      })
    );
  };
  const fontStyle = (family: string, weight: number, cls: string, fill: string): IconStyle => {
    const s = `${family} ${cls}`.toLowerCase();
    if (/duotone|two.?tone/.test(s)) return 'duotone';
    if (
      /outline|regular|light|thin|\bfar\b/.test(s) ||
      (/awesome/.test(s) && weight < 900) ||
      (/symbols/.test(s) && !/'FILL' 1/.test(fill))
    )
      return 'outline';
    return 'filled';
  };
  const firstFamily = (cs: CSSStyleDeclaration): string =>
    (cs.fontFamily.split(',')[0] ?? '').trim().replace(/^["']|["']$/g, '');
  const LIGATURE = /material (icons|symbols)|icon/i;
  for (const el of fontEls) {
    const cls = typeof el.className === 'string' ? el.className : '';
    for (const pseudo of ['::before', '::after']) {
      const cs = getComputedStyle(el, pseudo);
      const m = /^"(.*)"$/s.exec(cs.content);
      if (!m || !pua(m[1] ?? '')) continue;
      const family = firstFamily(cs);
      const glyph = `font:${family}:${[...(m[1] ?? '')].map((c) => c.codePointAt(0)!.toString(16)).join('+')}`;
      out.push({
        kind: 'font',
        canon: glyph,
        source: glyph,
        size: Math.round(parseFloat(cs.fontSize)),
        style: fontStyle(family, parseFloat(cs.fontWeight), cls, cs.fontVariationSettings),
      });
    }
    let text = '';
    for (const c of el.childNodes) if (c.nodeType === 3) text += c.textContent ?? '';
    text = text.trim();
    if (!text) continue;
    const cs = getComputedStyle(el);
    const family = firstFamily(cs);
    if (cs.display === 'none' || !(pua(text) || (LIGATURE.test(family) && /^[a-z0-9_]+$/.test(text)))) continue;
    const glyph = pua(text) ? [...text].map((c) => c.codePointAt(0)!.toString(16)).join('+') : text;
    const id = `font:${family}:${glyph}`;
    out.push({
      kind: 'font',
      canon: id,
      source: id,
      size: Math.round(parseFloat(cs.fontSize)),
      style: fontStyle(family, parseFloat(cs.fontWeight), cls, cs.fontVariationSettings),
    });
  }
  return out;
}

export function groupIcons(uses: IconUse[]): IconEntry[] {
  const by = new Map<string, { e: IconEntry; sizes: Map<number, number> }>();
  for (const u of uses) {
    const hash = sha(u.canon).slice(0, 16);
    const g = by.get(hash) ?? {
      e: { hash, source: u.source, kind: u.kind, size: u.size, style: u.style, count: 0 },
      sizes: new Map<number, number>(),
    };
    g.e.count += 1;
    g.sizes.set(u.size, (g.sizes.get(u.size) ?? 0) + 1);
    by.set(hash, g);
  }
  return [...by.values()]
    .map(({ e, sizes }) => ({ ...e, size: [...sizes.entries()].sort((a, b) => b[1] - a[1])[0]![0] }))
    .sort((a, b) => b.count - a.count);
}

export const ICON_SIZE_MAX_PX = 48;

export async function extractIcons(page: Page, uploader: AssetUploader): Promise<{ icons: IconEntry[] }> {
  const icons = groupIcons(await evaluateIn(page, collectIcons, ICON_SIZE_MAX_PX));
  await Promise.all(
    icons.map(async (icon) => {
      if (icon.kind === 'font' || !icon.source) return;
      const up = await uploader.fromText('icons', icon.source);
      if (up) Object.assign(icon, { s3Key: up.s3Key, downloadUrl: up.downloadUrl, signedUrl: up.downloadUrl });
    }),
  );
  return { icons };
}
