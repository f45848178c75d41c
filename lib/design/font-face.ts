import type { FontEntry } from '../tasks/design-result.js';

/**
 * Pure helpers for the fonts extractor: @font-face parsing (used for same-origin rules and
 * for cross-origin stylesheet text read from the network, whose cssRules the page cannot
 * see), source classification and icon-font recognition.
 */
export interface FontFace {
  family: string;
  weightMin: number;
  weightMax: number;
  style: string;
  urls: string[];
}

export type FontSource = FontEntry['source'];

export function unquote(s: string): string {
  return s.trim().replace(/^(['"])(.*)\1$/, '$2').trim();
}

function parseWeight(v: string | undefined): [number, number] {
  const w = (v ?? '400').trim().toLowerCase();
  const one = (t: string): number => (t === 'bold' ? 700 : t === 'normal' ? 400 : parseFloat(t) || 400);
  const parts = w.split(/\s+/);
  const lo = one(parts[0] ?? '400');
  return [lo, parts[1] ? one(parts[1]) : lo];
}

export function parseFontFaces(css: string, baseUrl: string): FontFace[] {
  const out: FontFace[] = [];
  const clean = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const m of clean.matchAll(/@font-face\s*\{([^}]*)\}/gi)) {
    const body = m[1] ?? '';
    const decl = (name: string): string | undefined => new RegExp(`(?:^|;|\\s)${name}\\s*:\\s*([^;]+)`, 'i').exec(body)?.[1];
    const family = decl('font-family');
    if (!family) continue;
    const urls: string[] = [];
    for (const u of (decl('src') ?? '').matchAll(/url\(\s*(['"]?)(.*?)\1\s*\)/gi)) {
      try {
        urls.push(new URL(u[2] ?? '', baseUrl).href);
      } catch {
        /* unparsable URL in a third-party stylesheet */
      }
    }
    const [weightMin, weightMax] = parseWeight(decl('font-weight'));
    out.push({ family: unquote(family), weightMin, weightMax, style: (decl('font-style') ?? 'normal').trim(), urls });
  }
  return out;
}

/** Picks the face serving `weight` (normal style first) and its best file (woff2 first). */
export function faceUrlFor(faces: FontFace[], weight: number): string | undefined {
  const byDistance = [...faces].sort((a, b) => {
    const d = (f: FontFace): number => (weight < f.weightMin ? f.weightMin - weight : weight > f.weightMax ? weight - f.weightMax : 0) + (f.style === 'normal' ? 0 : 1000);
    return d(a) - d(b);
  });
  for (const f of byDistance) {
    const url = f.urls.find((u) => /\.woff2(?:[?#]|$)/i.test(u)) ?? f.urls.find((u) => !u.startsWith('data:')) ?? f.urls[0];
    if (url) return url;
  }
  return undefined;
}

export function fontSource(faceUrl: string | undefined, sheetHref: string | undefined): FontSource {
  const hosts = [faceUrl, sheetHref].map((u) => {
    try {
      return u ? new URL(u).hostname : '';
    } catch {
      return '';
    }
  });
  if (hosts.some((h) => /(^|\.)fonts\.(gstatic|googleapis)\.com$/.test(h))) return 'google';
  if (hosts.some((h) => /(^|\.)(use|p)\.typekit\.net$|(^|\.)typekit\.com$/.test(h))) return 'adobe';
  return faceUrl ? 'self-hosted' : 'system';
}

const ICON_FAMILY = /awesome|icon|glyph|material symbols|material icons|ionicons|feather|bootstrap-icons|remixicon|dashicons|phosphor|lucide/i;

export function isPrivateUse(text: string): boolean {
  const chars = [...text.trim()];
  return chars.length > 0 && chars.every((c) => {
    const cp = c.codePointAt(0) ?? 0;
    return (cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000;
  });
}

export function isIconFamily(family: string): boolean {
  return ICON_FAMILY.test(family);
}

export const GENERIC_FAMILIES = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui', 'ui-serif', 'ui-sans-serif', 'ui-monospace', 'ui-rounded', 'math', 'emoji', 'fangsong', '-apple-system', 'blinkmacsystemfont']);

export function splitFamilies(stack: string): string[] {
  return stack.split(',').map(unquote).filter(Boolean);
}
