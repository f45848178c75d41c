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

/** `self-hosted`, a web-font service by name, or `system` when no @font-face serves the family. */
export type FontSource = FontEntry['source'];

/** Web-font services by the hosts their stylesheets and files come from. */
const SERVICES: [Exclude<FontSource, 'self-hosted' | 'system'>, RegExp][] = [
  ['google', /(^|\.)fonts\.(gstatic|googleapis)\.com$/],
  ['adobe', /(^|\.)(use|p)\.typekit\.net$|(^|\.)typekit\.com$/],
  ['bunny', /(^|\.)fonts\.bunny\.net$/],
  ['fontshare', /(^|\.)(api|cdn)\.fontshare\.com$/],
  ['fonts.com', /(^|\.)fast\.fonts\.(net|com)$/],
  ['typography.com', /(^|\.)cloud\.typography\.com$/],
];

export function unquote(s: string): string {
  return s
    .trim()
    .replace(/^(['"])(.*)\1$/, '$2')
    .trim();
}

function parseWeight(v: string | undefined): [number, number] {
  const w = (v ?? '400').trim().toLowerCase();
  const one = (t: string): number => (t === 'bold' ? 700 : t === 'normal' ? 400 : parseFloat(t) || 400);
  const parts = w.split(/\s+/);
  const lo = one(parts[0] ?? '400');
  return [lo, parts[1] ? one(parts[1]) : lo];
}

/** Index just past the string that opens at `i` (or the end, when the page never closes it). */
function skipString(css: string, i: number): number {
  const quote = css[i];
  let j = i + 1;
  while (j < css.length && css[j] !== quote) j += css[j] === '\\' ? 2 : 1;
  return j + 1;
}

/** Index just past the comment that opens at `i`. */
function skipComment(css: string, i: number): number {
  const end = css.indexOf('*/', i + 2);
  return end < 0 ? css.length : end + 2;
}

/**
 * The bodies of the @font-face rules of a stylesheet, in one pass that steps over
 * comments and strings: linear in the sheet's length, so hostile CSS (unclosed comments,
 * thousands of unterminated rules) costs no more than reading it.
 */
export function fontFaceBlocks(css: string): string[] {
  const blocks: string[] = [];
  let i = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === '/' && css[i + 1] === '*') i = skipComment(css, i);
    else if (c === '"' || c === "'") i = skipString(css, i);
    else if (c === '@' && css.slice(i + 1, i + 10).toLowerCase() === 'font-face') {
      let j = i + 10;
      while (j < css.length && /\s/.test(css[j] ?? '')) j += 1;
      if (css[j] !== '{') {
        i = j;
        continue;
      }
      const start = j + 1;
      let k = start;
      while (k < css.length && css[k] !== '}') {
        if (css[k] === '/' && css[k + 1] === '*') k = skipComment(css, k);
        else if (css[k] === '"' || css[k] === "'") k = skipString(css, k);
        else k += 1;
      }
      blocks.push(css.slice(start, Math.min(k, css.length)));
      i = k + 1;
    } else i += 1;
  }
  return blocks;
}

/** `name: value` pairs of a declaration block, split on `;` outside strings, parentheses and comments. */
export function declarations(block: string): Map<string, string> {
  const out = new Map<string, string>();
  let depth = 0;
  let from = 0;
  const flush = (to: number) => {
    const decl = block.slice(from, to);
    const colon = decl.indexOf(':');
    if (colon > 0) out.set(decl.slice(0, colon).trim().toLowerCase(), decl.slice(colon + 1).trim());
  };
  let i = 0;
  while (i < block.length) {
    const c = block[i];
    if (c === '/' && block[i + 1] === '*') {
      i = skipComment(block, i);
      continue;
    }
    if (c === '"' || c === "'") {
      i = skipString(block, i);
      continue;
    }
    if (c === '(') depth += 1;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0) {
      flush(i);
      from = i + 1;
    }
    i += 1;
  }
  flush(block.length);
  return out;
}

/** The targets of the `url(...)` functions of a value, quoted or not. */
export function cssUrls(value: string): string[] {
  const urls: string[] = [];
  const lower = value.toLowerCase();
  let i = lower.indexOf('url(');
  while (i >= 0) {
    let j = i + 4;
    while (j < value.length && /\s/.test(value[j] ?? '')) j += 1;
    let target: string;
    if (value[j] === '"' || value[j] === "'") {
      const end = skipString(value, j);
      target = value.slice(j + 1, end - 1);
      j = end;
    } else {
      const close = value.indexOf(')', j);
      target = value.slice(j, close < 0 ? value.length : close).trim();
      j = close < 0 ? value.length : close;
    }
    urls.push(target);
    i = lower.indexOf('url(', j);
  }
  return urls;
}

export function parseFontFaces(css: string, baseUrl: string): FontFace[] {
  const out: FontFace[] = [];
  for (const block of fontFaceBlocks(css)) {
    const decl = declarations(block);
    const family = decl.get('font-family');
    if (!family) continue;
    const urls: string[] = [];
    for (const u of cssUrls(decl.get('src') ?? '')) {
      try {
        urls.push(new URL(u, baseUrl).href);
      } catch {
        /* unparsable URL in a third-party stylesheet */
      }
    }
    const [weightMin, weightMax] = parseWeight(decl.get('font-weight'));
    out.push({
      family: unquote(family),
      weightMin,
      weightMax,
      style: (decl.get('font-style') ?? 'normal').trim(),
      urls,
    });
  }
  return out;
}

/** Picks the face serving `weight` (normal style first) and its best file (woff2 first). */
export function faceUrlFor(faces: FontFace[], weight: number): string | undefined {
  const byDistance = [...faces].sort((a, b) => {
    const d = (f: FontFace): number =>
      (weight < f.weightMin ? f.weightMin - weight : weight > f.weightMax ? weight - f.weightMax : 0) +
      (f.style === 'normal' ? 0 : 1000);
    return d(a) - d(b);
  });
  for (const f of byDistance) {
    const url =
      f.urls.find((u) => /\.woff2(?:[?#]|$)/i.test(u)) ?? f.urls.find((u) => !u.startsWith('data:')) ?? f.urls[0];
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
  for (const [name, re] of SERVICES) if (hosts.some((h) => re.test(h))) return name;
  return faceUrl ? 'self-hosted' : 'system';
}

const ICON_FAMILY =
  /awesome|icon|glyph|material symbols|material icons|ionicons|feather|bootstrap-icons|remixicon|dashicons|phosphor|lucide/i;

export function isPrivateUse(text: string): boolean {
  const chars = [...text.trim()];
  return (
    chars.length > 0 &&
    chars.every((c) => {
      const cp = c.codePointAt(0) ?? 0;
      return (cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000;
    })
  );
}

export function isIconFamily(family: string): boolean {
  return ICON_FAMILY.test(family);
}

export const GENERIC_FAMILIES = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
  'math',
  'emoji',
  'fangsong',
  '-apple-system',
  'blinkmacsystemfont',
]);

export function splitFamilies(stack: string): string[] {
  return stack.split(',').map(unquote).filter(Boolean);
}
