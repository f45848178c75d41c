import type { Page } from 'playwright-core';
import * as z from 'zod';

/**
 * A compact, visible-only copy of the page's DOM, taken in one round trip. Markdown,
 * page summaries and schema extraction all work on it in Node, so they are plain
 * functions testable without a browser.
 */
export interface DomNode {
  t: string;
  a?: Record<string, string>;
  c?: DomChild[];
}
export type DomChild = DomNode | string;

const DomNodeSchema: z.ZodType<DomNode> = z.lazy(() =>
  z.object({
    t: z.string(),
    a: z.record(z.string(), z.string()).optional(),
    c: z.array(z.union([z.string(), DomNodeSchema])).optional(),
  }),
);

export const PageDomSchema = z.object({
  url: z.string(),
  title: z.string(),
  meta: z.array(z.tuple([z.string(), z.string()])),
  jsonLd: z.array(z.string()),
  body: DomNodeSchema.nullable(),
});
export type PageDom = z.infer<typeof PageDomSchema>;

/** Runs in the page. A string, not a function, so the TS toolchain's helpers never leak into it. */
const SERIALIZE_DOM = `(() => {
  const KEEP = ['href','src','alt','name','id','for','type','itemprop','itemscope','itemtype','content','role','aria-label','placeholder','title','action','method','datetime','colspan'];
  const SKIP = new Set(['script','style','noscript','template','svg','canvas','iframe','object','head','link','meta']);
  function ser(el) {
    const t = el.tagName.toLowerCase();
    if (SKIP.has(t) || el.hidden || el.getAttribute('aria-hidden') === 'true') return null;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') return null;
    const a = {};
    for (const k of KEEP) { const v = el.getAttribute(k); if (v !== null) a[k] = v; }
    if (t === 'a' && el.href) a.href = el.href;
    if (t === 'img' && el.src) a.src = el.src;
    if (t === 'input' || t === 'textarea' || t === 'select') { a.value = String(el.value ?? ''); if (el.checked) a.checked = ''; }
    if (t === 'option' && el.selected) a.selected = '';
    const c = [];
    for (const ch of el.childNodes) {
      if (ch.nodeType === 3) { const s = ch.textContent || ''; if (s.trim()) c.push(s.replace(/\\s+/g, ' ')); else if (s && c.length) c.push(' '); }
      else if (ch.nodeType === 1) { const n = ser(ch); if (n) c.push(n); }
    }
    const n = { t };
    if (Object.keys(a).length) n.a = a;
    if (c.length) n.c = c;
    return n;
  }
  return {
    url: location.href,
    title: document.title,
    meta: [...document.querySelectorAll('meta[name],meta[property]')].map((m) => [m.getAttribute('name') || m.getAttribute('property') || '', m.getAttribute('content') || '']),
    jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => s.textContent || ''),
    body: document.body ? ser(document.body) : null,
  };
})()`;

export async function readPageDom(page: Page): Promise<PageDom> {
  return PageDomSchema.parse(await page.evaluate(SERIALIZE_DOM));
}

export const isNode = (c: DomChild): c is DomNode => typeof c !== 'string';

export function elements(node: DomNode): DomNode[] {
  return (node.c ?? []).filter(isNode);
}

/** Depth-first, the node itself included. */
export function* descendants(node: DomNode): Generator<DomNode> {
  yield node;
  for (const c of elements(node)) yield* descendants(c);
}

export function findAll(node: DomNode, pred: (n: DomNode) => boolean): DomNode[] {
  return [...descendants(node)].filter(pred);
}

export function textOf(node: DomChild): string {
  if (typeof node === 'string') return node;
  if (node.t === 'input' || node.t === 'textarea') return node.a?.value ?? '';
  if (node.t === 'img') return node.a?.alt ?? '';
  if (node.t === 'select') {
    const chosen = findAll(node, (n) => n.t === 'option' && n.a?.selected !== undefined)[0];
    return chosen ? textOf(chosen) : '';
  }
  return (node.c ?? []).map(textOf).join('');
}

export const cleanText = (s: string): string => s.replace(/\s+/g, ' ').trim();

const BOILERPLATE = new Set(['nav', 'header', 'footer', 'aside']);
const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary']);

export function isBoilerplate(n: DomNode): boolean {
  return BOILERPLATE.has(n.t) || BOILERPLATE_ROLES.has(n.a?.role ?? '');
}

/** The page's main content: <main>/role=main, else the largest <article>, else the body. */
export function mainContent(body: DomNode): DomNode {
  const main = findAll(body, (n) => n.t === 'main' || n.a?.role === 'main')[0];
  if (main) return main;
  const articles = findAll(body, (n) => n.t === 'article').sort((x, y) => textOf(y).length - textOf(x).length);
  return articles[0] ?? body;
}
