import type { Page } from 'playwright-core';
import type { AssetUploader } from './assets.js';
import type { FontEntry } from '../tasks/design-result.js';
import { faceUrlFor, fontSource, isIconFamily, parseFontFaces, splitFamilies, type FontFace } from './font-face.js';
import { evaluateIn } from './evaluate.js';

export type { FontEntry };
export type FontUsage = FontEntry['usage'];

export interface FontUse {
  family: string;
  stack: string;
  /** Best in-page guess of the painted family; replaced by Chromium's own answer when available. */
  rendered: string;
  weight: number;
  usage: FontUsage;
  chars: number;
  count: number;
  pua: boolean;
}
interface FontPage {
  uses: FontUse[];
  /** Marked sample elements (attribute value → declared family) whose painted font Chromium is asked for. */
  samples: Record<string, string>;
  rules: { css: string; base: string }[];
  blocked: string[];
}

/** Marks one sample element per declared family so the painted font can be asked of Chromium over CDP. */
const SAMPLE_ATTR = 'data-bts-font-sample';

/**
 * Browser side: for every element with its own text, the family the site declares (first
 * of the computed stack), the stack, a guess at the family painted (first of the stack that
 * is a loaded web font, a generic family or an installed font), its weight and a usage
 * category; plus the @font-face rules the page may read and the stylesheets it may not
 * (cross-origin, read by Node from the network).
 */
function collectFonts(sampleAttr: string): FontPage {
  const GENERIC = new Set([
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
  ]);
  const webFonts = new Map<string, boolean>();
  for (const f of document.fonts) {
    const fam = f.family.replace(/^["']|["']$/g, '').toLowerCase();
    webFonts.set(fam, (webFonts.get(fam) ?? false) || f.status === 'loaded');
  }
  const ctx = document.createElement('canvas').getContext('2d');
  const installed = (fam: string): boolean => {
    if (!ctx) return false;
    const probe = 'mmmmmmmmmlli10OWX@#';
    return ['monospace', 'serif'].some((base) => {
      ctx.font = `72px ${base}`;
      const w0 = ctx.measureText(probe).width;
      ctx.font = `72px "${fam}", ${base}`;
      return ctx.measureText(probe).width !== w0;
    });
  };
  const resolved = new Map<string, string>();
  const used = (stack: string): string => {
    let hit = resolved.get(stack);
    if (hit !== undefined) return hit;
    const fams = stack.split(',').map((s) => s.trim().replace(/^["']|["']$/g, ''));
    hit =
      fams.find(
        (f) =>
          GENERIC.has(f.toLowerCase()) ||
          webFonts.get(f.toLowerCase()) === true ||
          (!webFonts.has(f.toLowerCase()) && installed(f)),
      ) ??
      fams[fams.length - 1] ??
      stack;
    resolved.set(stack, hit);
    return hit;
  };
  const usageOf = (el: Element): FontUsage => {
    if (el.closest('h1,h2,h3,h4,h5,h6,[role=heading]')) return 'heading';
    if (el.closest('code,pre,kbd,samp')) return 'code';
    if (el.closest('button,a,label,input,select,textarea,nav,[role=button],[role=tab],[role=menuitem]')) return 'ui';
    return 'body';
  };
  const agg = new Map<string, FontUse>();
  const sample = new Map<string, { el: Element; len: number }>();
  const visit = (root: Element | ShadowRoot): void => {
    for (const el of root.children) {
      const tag = el.tagName.toUpperCase();
      if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'HEAD' || tag === 'TEMPLATE') continue;
      let text = '';
      for (const c of el.childNodes) if (c.nodeType === 3) text += c.textContent ?? '';
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) text += el.value || el.placeholder;
      text = text.trim();
      if (text) {
        const cs = getComputedStyle(el);
        if (cs.display !== 'none' && cs.visibility !== 'hidden') {
          const stack = cs.fontFamily;
          const family = (stack.split(',')[0] ?? '').trim().replace(/^["']|["']$/g, '') || stack;
          const weight = parseFloat(cs.fontWeight);
          const usage = usageOf(el);
          const pua = [...text].every((ch) => {
            const cp = ch.codePointAt(0) ?? 0;
            return (cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000;
          });
          const key = `${family}|${weight}|${usage}|${pua}`;
          const u = agg.get(key) ?? { family, stack, rendered: used(stack), weight, usage, chars: 0, count: 0, pua };
          const best = sample.get(family.toLowerCase());
          if (!pua && (!best || text.length > best.len)) sample.set(family.toLowerCase(), { el, len: text.length });
          u.chars += text.length;
          u.count += 1;
          agg.set(key, u);
        }
      }
      if (el.shadowRoot) visit(el.shadowRoot);
      visit(el);
    }
  };
  visit(document.documentElement);

  const rules: { css: string; base: string }[] = [];
  const blocked: string[] = [];
  const scan = (sheet: CSSStyleSheet): void => {
    let list: CSSRuleList;
    try {
      list = sheet.cssRules;
    } catch {
      if (sheet.href) blocked.push(sheet.href);
      return;
    }
    const base = sheet.href ?? location.href;
    const each = (rs: CSSRuleList): void => {
      for (const r of rs) {
        if (r instanceof CSSFontFaceRule) rules.push({ css: r.cssText, base });
        else if (r instanceof CSSImportRule && r.styleSheet) scan(r.styleSheet);
        else if ('cssRules' in r) each((r as CSSGroupingRule).cssRules);
      }
    };
    each(list);
  };
  const sheets: CSSStyleSheet[] = [...document.styleSheets, ...document.adoptedStyleSheets];
  const hosts = (root: Element | ShadowRoot): void => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) {
        sheets.push(...el.shadowRoot.styleSheets, ...el.shadowRoot.adoptedStyleSheets);
        hosts(el.shadowRoot);
      }
    }
  };
  hosts(document.documentElement);
  sheets.forEach(scan);
  const samples: Record<string, string> = {};
  [...sample.entries()].forEach(([fam, { el }], i) => {
    el.setAttribute(sampleAttr, String(i));
    samples[String(i)] = fam;
  });
  return { uses: [...agg.values()], samples, rules, blocked: [...new Set(blocked)] };
}

/**
 * The family Chromium actually painted each sample with (CSS.getPlatformFontsForNode:
 * the font with the most glyphs), keyed by lowercased declared family. Best effort: an
 * empty map leaves the in-page guess in place.
 */
async function paintedFamilies(page: Page, samples: Record<string, string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (Object.keys(samples).length === 0) return out;
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: `[${SAMPLE_ATTR}]` });
    for (const nodeId of nodeIds.slice(0, 50)) {
      const { attributes } = await cdp.send('DOM.getAttributes', { nodeId });
      const key = attributes[attributes.indexOf(SAMPLE_ATTR) + 1];
      const family = key === undefined ? undefined : samples[key];
      if (!family) continue;
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      const top = [...fonts].sort((a, b) => b.glyphCount - a.glyphCount)[0];
      if (top) out.set(family, top.familyName);
    }
  } finally {
    await cdp.detach().catch(() => undefined);
    await page
      .evaluate(`document.querySelectorAll('[${SAMPLE_ATTR}]').forEach((e) => e.removeAttribute('${SAMPLE_ATTR}'))`)
      .catch(() => undefined);
  }
  return out;
}

/** Enough for a site's own sheets and its web-font services; a page cannot make us read hundreds. */
const MAX_BLOCKED_SHEETS = 20;

export function summarizeFonts(
  uses: FontUse[],
  faces: (FontFace & { sheet: string })[],
  painted = new Map<string, string>(),
): FontEntry[] {
  const byFamily = new Map<string, FontUse[]>();
  for (const u of uses) {
    if (u.pua || isIconFamily(u.family)) continue;
    const list = byFamily.get(u.family.toLowerCase()) ?? [];
    list.push(u);
    byFamily.set(u.family.toLowerCase(), list);
  }
  const out: FontEntry[] = [];
  for (const [key, list] of byFamily) {
    const chars = new Map<FontUsage, number>();
    const weightCount = new Map<number, number>();
    for (const u of list) {
      chars.set(u.usage, (chars.get(u.usage) ?? 0) + u.chars);
      weightCount.set(u.weight, (weightCount.get(u.weight) ?? 0) + u.count);
    }
    const usages = [...chars.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
    const mainWeight = [...weightCount.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 400;
    const main = [...list].sort((a, b) => b.chars - a.chars)[0]!;
    const own = faces.filter((f) => f.family.toLowerCase() === key);
    const faceUrl = faceUrlFor(own, mainWeight);
    const entry: FontEntry = {
      family: main.family,
      usage: usages[0] ?? 'body',
      usages,
      stack: splitFamilies(main.stack),
      rendered: painted.get(key) ?? main.rendered,
      count: list.reduce((n, u) => n + u.count, 0),
      weights: [...weightCount.keys()].sort((a, b) => a - b),
      // Only an @font-face rule makes a family a web font; without one it is whatever the visitor has.
      source: own.length ? fontSource(faceUrl, own[0]?.sheet) : 'system',
    };
    if (faceUrl) entry.faceUrl = faceUrl;
    out.push(entry);
  }
  return out.sort((a, b) => b.count - a.count);
}

export async function extractFonts(page: Page, uploader: AssetUploader): Promise<{ fonts: FontEntry[] }> {
  const raw = await evaluateIn(page, collectFonts, SAMPLE_ATTR);
  const painted = await paintedFamilies(page, raw.samples).catch(() => new Map<string, string>());
  // Cross-origin sheets the page may not show us are read from the network, guarded and capped like any asset.
  const fetched = await Promise.all(raw.blocked.slice(0, MAX_BLOCKED_SHEETS).map((href) => uploader.stylesheet(href)));
  const texts = [...raw.rules, ...fetched.filter((x): x is { css: string; base: string } => x !== undefined)];
  const faces = texts.flatMap((t) => parseFontFaces(t.css, t.base).map((f) => ({ ...f, sheet: t.base })));
  const fonts = summarizeFonts(raw.uses, faces, painted);
  await Promise.all(
    fonts.map(async (f) => {
      if (!f.faceUrl) return;
      f.originalFaceUrl = f.faceUrl;
      const up = await uploader.fromUrl('fonts', f.faceUrl);
      if (up) Object.assign(f, { s3Key: up.s3Key, downloadUrl: up.downloadUrl });
    }),
  );
  return { fonts };
}
