/*
 * `npx tsx scripts/corpus-derive.ts [id…]`: helps write test/real/ground-truth.json. For
 * each corpus page it reads the page's own computed styles, independently of
 * lib/design (body-copy colour by characters, the colour behind a grid of viewport
 * points, link/button/header-bar/custom-property colours, declared font stacks, header
 * images) and saves a screenshot under .cache/corpus-shots/ to review by eye. It prints
 * evidence; a person decides the ground truth.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../lib/browser/chromium.js';
import { evaluateIn } from '../lib/design/evaluate.js';
import { startFixtureServer } from '../test/support/fixture-server.js';
import { CACHE_DIR, OWN_PAGES_DIR, REPO_ROOT, loadManifest } from '../test/real/corpus.js';

type Tally = [string, number][];
interface Evidence {
  text: Tally;
  pageBackground?: Tally;
  background: Tally;
  links: Tally;
  buttons: Tally;
  bars: Tally;
  vars: [string, string][];
  body: Tally;
  heading: Tally;
  bodyStack: string;
  headingStack: string;
  marks: string[];
}

/** Browser side. Colours go through a 1×1 canvas so any CSS colour syntax and alpha compose exactly as painted. */
function derive(): Evidence {
  const cv = document.createElement('canvas');
  cv.width = cv.height = 1;
  const g = cv.getContext('2d', { willReadFrequently: true })!;
  const paint = (layers: string[]): string => {
    g.globalCompositeOperation = 'copy';
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, 1, 1);
    g.globalCompositeOperation = 'source-over';
    for (const c of layers) {
      g.fillStyle = c;
      g.fillRect(0, 0, 1, 1);
    }
    const [r, gg, b] = g.getImageData(0, 0, 1, 1).data;
    return (
      '#' +
      [r, gg, b]
        .map((x) => (x ?? 0).toString(16).padStart(2, '0'))
        .join('')
        .toUpperCase()
    );
  };
  const bgLayers = (el: Element | null): string[] => {
    const out: string[] = [];
    for (let e = el; e; e = e.parentElement) out.unshift(getComputedStyle(e).backgroundColor);
    return out;
  };
  const tally = (m: Map<string, number>): Tally => {
    const total = [...m.values()].reduce((a, b) => a + b, 0) || 1;
    return [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, v]) => [k, Math.round((v / total) * 100) / 100]);
  };
  const bump = (m: Map<string, number>, k: string, w: number): void => void m.set(k, (m.get(k) ?? 0) + w);
  const first = (stack: string): string => (stack.split(',')[0] ?? '').trim().replace(/^["']|["']$/g, '');
  const shown = (el: Element): boolean => {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    // Off-canvas drawers sit at negative x: present in the DOM, never seen.
    return (
      cs.visibility !== 'hidden' &&
      cs.display !== 'none' &&
      r.width > 0 &&
      r.height > 0 &&
      r.right > 0 &&
      r.left < innerWidth
    );
  };
  const text = new Map<string, number>();
  const body = new Map<string, number>();
  let bodyStack = '';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const len = (n.textContent ?? '').trim().length;
    if (!el || !len || !el.closest('p,li,td,dd')) continue;
    if (el.closest('a,h1,h2,h3,h4,h5,h6,[role=heading],pre,code,button,label,nav,script,style') || !shown(el)) continue;
    const cs = getComputedStyle(el);
    bump(text, paint([...bgLayers(el), cs.color]), len);
    bump(body, first(cs.fontFamily), len);
    bodyStack ||= cs.fontFamily;
  }
  const background = new Map<string, number>();
  for (let y = 0; y < 10; y++) {
    for (let x = 0; x < 16; x++) {
      const el = document.elementFromPoint((x + 0.5) * (innerWidth / 16), (y + 0.5) * (innerHeight / 10));
      bump(background, paint(bgLayers(el)), 1);
    }
  }
  const links = new Map<string, number>();
  for (const a of document.querySelectorAll('a[href]')) {
    if ((a.textContent ?? '').trim() && shown(a)) bump(links, paint([...bgLayers(a), getComputedStyle(a).color]), 1);
  }
  const buttons = new Map<string, number>();
  for (const b of document.querySelectorAll('button,.btn,.button,input[type=submit]')) {
    const bg = getComputedStyle(b).backgroundColor;
    if (shown(b) && !/rgba\(0, 0, 0, 0\)/.test(bg)) bump(buttons, paint(bgLayers(b)), 1);
  }
  const bars = new Map<string, number>();
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.top > 300 || r.width < innerWidth * 0.6 || r.height < 30 || r.height > 400 || !shown(el)) continue;
    const bg = getComputedStyle(el).backgroundColor;
    if (!/rgba\(0, 0, 0, 0\)/.test(bg))
      bump(bars, `${paint(bgLayers(el))} ${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]}`, 1);
  }
  const vars: [string, string][] = [];
  const rootCs = getComputedStyle(document.documentElement);
  for (const sheet of document.styleSheets) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue;
    }
    for (const r of rules) {
      if (!(r instanceof CSSStyleRule) || !/^(:root|html|body)/.test(r.selectorText)) continue;
      for (const p of r.style)
        if (p.startsWith('--') && /primary|brand|accent|link/i.test(p))
          vars.push([p, rootCs.getPropertyValue(p).trim()]);
    }
  }
  const heading = new Map<string, number>();
  let headingStack = '';
  for (const h of document.querySelectorAll('h1,h2,h3')) {
    if (!shown(h)) continue;
    const cs = getComputedStyle(h);
    bump(heading, first(cs.fontFamily), (h.textContent ?? '').trim().length);
    headingStack ||= cs.fontFamily;
  }
  const marks: string[] = [];
  for (const el of document.querySelectorAll('img,svg')) {
    const r = el.getBoundingClientRect();
    if (r.top > 250 || !shown(el) || el.parentElement?.closest('svg')) continue;
    const a = el.closest('a');
    const src = el instanceof HTMLImageElement ? el.currentSrc.split('/').slice(-2).join('/') : 'inline-svg';
    marks.push(
      `${el.tagName.toLowerCase()} ${src} alt="${el.getAttribute('alt') ?? el.getAttribute('aria-label') ?? ''}" ${Math.round(r.width)}x${Math.round(r.height)}@${Math.round(r.left)},${Math.round(r.top)} in=${a ? `a[href=${a.getAttribute('href')}]` : '-'} btn=${Boolean(el.closest('button'))}`,
    );
  }
  return {
    text: tally(text),
    background: tally(background),
    links: tally(links),
    buttons: tally(buttons),
    bars: tally(bars),
    vars,
    body: tally(body),
    heading: tally(heading),
    bodyStack,
    headingStack,
    marks: marks.slice(0, 6),
  };
}

const want = new Set(process.argv.slice(2));
const manifest = loadManifest();
const shots = join(REPO_ROOT, '.cache', 'corpus-shots');
mkdirSync(shots, { recursive: true });
const server = await startFixtureServer({ root: CACHE_DIR, chroot: true, mounts: { '/own/': OWN_PAGES_DIR } });
const browser = await launchBrowser();
try {
  for (const p of manifest.pages.filter((x) => want.size === 0 || want.has(x.id))) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const failed: string[] = [];
    page.on(
      'response',
      (r) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url().replace(server.url, '')}`)),
    );
    await page.goto(`${server.url}${p.path}`, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
    await page.screenshot({ path: join(shots, `${p.id}.png`) });
    const ev = await evaluateIn(page, derive, null);
    // The same grid over the whole page (viewport stretched to it), for pages whose first screen is a hero.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 1280, height: Math.min(8000, Math.max(800, height)) });
    ev.pageBackground = (await evaluateIn(page, derive, null)).background;
    console.log(JSON.stringify({ id: p.id, ...ev, failed: failed.slice(0, 5) }));
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
