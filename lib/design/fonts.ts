import type { Page } from 'playwright-core';
import type { AssetUploader } from './assets.js';
import type { FontEntry } from '../tasks/design-result.js';
import { faceUrlFor, fontSource, isIconFamily, parseFontFaces, type FontFace } from './font-face.js';
import { evaluateIn } from './evaluate.js';

export type { FontEntry };
export type FontUsage = FontEntry['usage'];

interface FontUse {
  family: string;
  weight: number;
  usage: FontUsage;
  chars: number;
  count: number;
  pua: boolean;
}
interface FontPage {
  uses: FontUse[];
  rules: { css: string; base: string }[];
  blocked: string[];
}

/**
 * Browser side: for every element with its own text, the family Chromium actually renders
 * (first in the stack that is a loaded web font, a generic family or an installed local
 * font), its weight and a usage category; plus the @font-face rules the page may read and
 * the stylesheets it may not (cross-origin, read by Node from the network).
 */
function collectFonts(): FontPage {
  const GENERIC = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui', 'ui-serif', 'ui-sans-serif', 'ui-monospace', 'ui-rounded', 'math', 'emoji', 'fangsong']);
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
    hit = fams.find((f) => GENERIC.has(f.toLowerCase()) || webFonts.get(f.toLowerCase()) === true || (!webFonts.has(f.toLowerCase()) && installed(f))) ?? fams[fams.length - 1] ?? stack;
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
          const family = used(cs.fontFamily);
          const weight = parseFloat(cs.fontWeight);
          const usage = usageOf(el);
          const pua = [...text].every((ch) => {
            const cp = ch.codePointAt(0) ?? 0;
            return (cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000;
          });
          const key = `${family}|${weight}|${usage}|${pua}`;
          const u = agg.get(key) ?? { family, weight, usage, chars: 0, count: 0, pua };
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
  return { uses: [...agg.values()], rules, blocked: [...new Set(blocked)] };
}

async function readBlockedSheets(page: Page, hrefs: string[]): Promise<{ css: string; base: string }[]> {
  const out = await Promise.all(
    hrefs.slice(0, 20).map(async (href) => {
      const res = await page.context().request.get(href, { timeout: 10_000 }).catch(() => undefined);
      return res?.ok() ? { css: await res.text(), base: res.url() } : undefined;
    }),
  );
  return out.filter((x): x is { css: string; base: string } => x !== undefined);
}

export function summarizeFonts(uses: FontUse[], faces: (FontFace & { sheet: string })[]): FontEntry[] {
  const byFamily = new Map<string, FontUse[]>();
  for (const u of uses) {
    if (u.pua || isIconFamily(u.family)) continue;
    const list = byFamily.get(u.family.toLowerCase()) ?? [];
    list.push(u);
    byFamily.set(u.family.toLowerCase(), list);
  }
  const out: FontEntry[] = [];
  for (const list of byFamily.values()) {
    const chars = new Map<FontUsage, number>();
    const weightCount = new Map<number, number>();
    for (const u of list) {
      chars.set(u.usage, (chars.get(u.usage) ?? 0) + u.chars);
      weightCount.set(u.weight, (weightCount.get(u.weight) ?? 0) + u.count);
    }
    const usage = [...chars.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'body';
    const mainWeight = [...weightCount.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 400;
    const family = list[0]!.family;
    const own = faces.filter((f) => f.family.toLowerCase() === family.toLowerCase());
    const faceUrl = faceUrlFor(own, mainWeight);
    const entry: FontEntry = {
      family,
      usage,
      count: list.reduce((n, u) => n + u.count, 0),
      weights: [...weightCount.keys()].sort((a, b) => a - b),
      source: fontSource(faceUrl, own[0]?.sheet),
    };
    if (faceUrl) entry.faceUrl = faceUrl;
    out.push(entry);
  }
  return out.sort((a, b) => b.count - a.count);
}

export async function extractFonts(page: Page, uploader: AssetUploader): Promise<{ fonts: FontEntry[] }> {
  const raw = await evaluateIn(page, collectFonts, null);
  const texts = [...raw.rules, ...(await readBlockedSheets(page, raw.blocked))];
  const faces = texts.flatMap((t) => parseFontFaces(t.css, t.base).map((f) => ({ ...f, sheet: t.base })));
  const fonts = summarizeFonts(raw.uses, faces);
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
