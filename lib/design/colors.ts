import type { Page } from 'playwright-core';
import { buildPalette, type ColorNode, type ColorVar, type ContrastIssue, type PaletteColor } from './palette.js';
import { evaluateIn } from './evaluate.js';

export interface ColorsResult {
  colors: PaletteColor[];
  contrastIssues: ContrastIssue[];
}

/** Caps the DOM walk on huge pages; the palette is settled long before this many elements. */
const MAX_NODES = 6000;

/**
 * Browser side: every element (shadow roots included) in tree order, with its computed
 * colors, parent index (so Node can composite backgrounds) and the evidence the roles are
 * decided on: body-copy characters, link and button use, header bands, semantic state
 * names, and how many points of a grid over the page show its background. Plus the
 * custom properties declared on :root that hold colors, resolved by Chromium itself.
 */
function collectColors(maxNodes: number): { nodes: ColorNode[]; vars: ColorVar[] } {
  const nodes: ColorNode[] = [];
  const SKIP = new Set([
    'SCRIPT',
    'STYLE',
    'HEAD',
    'TEMPLATE',
    'NOSCRIPT',
    'META',
    'LINK',
    'TITLE',
    'DEFS',
    'SYMBOL',
    'MASK',
    'CLIPPATH',
    'LINEARGRADIENT',
    'RADIALGRADIENT',
  ]);
  const UI = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'LABEL']);
  const SHAPES = new Set(['PATH', 'RECT', 'CIRCLE', 'ELLIPSE', 'POLYGON', 'POLYLINE', 'LINE', 'TEXT']);
  const COPY = new Set(['P', 'LI', 'TD', 'DD']);
  // Text in these is not body copy even inside a paragraph or a list item.
  const NOT_COPY = new Set([
    'A',
    'H1',
    'H2',
    'H3',
    'H4',
    'H5',
    'H6',
    'PRE',
    'CODE',
    'BUTTON',
    'LABEL',
    'NAV',
    'KBD',
    'SAMP',
  ]);
  const SEM: [NonNullable<ColorNode['sem']>, RegExp][] = [
    ['error', /^(error|errors|danger|invalid|fail|failed|failure|negative|destructive|critical)$/],
    ['success', /^(success|ok|valid|positive|passed|done)$/],
    ['warning', /^(warning|warn|caution|attention)$/],
  ];
  const semOf = (el: Element): ColorNode['sem'] => {
    if (el.getAttribute('aria-invalid') === 'true') return 'error';
    const cls = typeof el.className === 'string' ? el.className : (el.getAttribute('class') ?? '');
    const tokens = `${cls} ${el.id}`.toLowerCase().split(/[\s_-]+/);
    for (const [role, re] of SEM) if (tokens.some((t) => re.test(t))) return role;
    return null;
  };
  const docW = Math.max(document.documentElement.scrollWidth, innerWidth);
  const docH = Math.max(document.documentElement.scrollHeight, innerHeight);
  const docArea = docW * docH;
  /** Boxes that paint a background, in tree order (≈ paint order), for the coverage grid. */
  const painters: { i: number; x0: number; y0: number; x1: number; y1: number; image: boolean }[] = [];
  const visit = (
    el: Element,
    parent: number,
    parentOp: number,
    parentUi: boolean,
    ctx: { copy: boolean; notCopy: boolean; link: boolean; sem: ColorNode['sem'] },
  ): void => {
    if (nodes.length >= maxNodes || SKIP.has(el.tagName.toUpperCase())) return;
    const cs = getComputedStyle(el);
    if (cs.display === 'none') return;
    const op = parentOp * parseFloat(cs.opacity || '1');
    const rect = el.getBoundingClientRect();
    const isRoot = el === document.documentElement || el === document.body;
    const area = isRoot ? docArea : rect.width * rect.height;
    let text = 0;
    for (const c of el.childNodes) if (c.nodeType === 3) text += (c.textContent ?? '').trim().length;
    const tag = el.tagName.toUpperCase();
    const ui = parentUi || UI.has(tag) || el.getAttribute('role') === 'button';
    const side = (['Top', 'Right', 'Bottom', 'Left'] as const).find(
      (s) => parseFloat(cs[`border${s}Width`]) > 0 && cs[`border${s}Style`] !== 'none',
    );
    const shape = el instanceof SVGElement && SHAPES.has(tag);
    const here = {
      copy: ctx.copy || COPY.has(tag),
      notCopy: ctx.notCopy || NOT_COPY.has(tag) || el.getAttribute('role') === 'heading',
      link: ctx.link || (tag === 'A' && el.hasAttribute('href')),
      sem: semOf(el) ?? ctx.sem,
    };
    const vis = cs.visibility !== 'hidden' && (area > 0 || isRoot);
    const ownBg = !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(cs.backgroundColor);
    const cls = (typeof el.className === 'string' ? el.className : '').toLowerCase();
    const button =
      ownBg &&
      (tag === 'BUTTON' ||
        el.getAttribute('role') === 'button' ||
        /^(submit|button)$/.test(el.getAttribute('type') ?? '') ||
        /(^|\s)(btn|button)(\s|-|$)/.test(cls));
    const top = rect.top + scrollY;
    const bar =
      ownBg && !isRoot && top < 300 && rect.width >= 0.6 * innerWidth && rect.height >= 30 && rect.height <= 400;
    const idx = nodes.length;
    nodes.push({
      p: parent,
      vis,
      bg: cs.backgroundColor,
      fg: cs.color,
      border: side ? cs[`border${side}Color`] : null,
      fill: shape && cs.fill !== 'none' && !cs.fill.startsWith('url') ? cs.fill : null,
      stroke: shape && cs.stroke !== 'none' && !cs.stroke.startsWith('url') ? cs.stroke : null,
      text,
      fs: parseFloat(cs.fontSize),
      fw: parseFloat(cs.fontWeight),
      area,
      op,
      ui,
      copy: here.copy && !here.notCopy ? text : 0,
      link: here.link && text > 0,
      button,
      bar,
      sem: here.sem,
      cover: 0,
    });
    const image = cs.backgroundImage !== 'none' || tag === 'IMG' || tag === 'VIDEO' || tag === 'CANVAS';
    // Rounded boxes are components (cards, buttons, badges) sitting on a region, not regions.
    const rounded = parseFloat(cs.borderTopLeftRadius) > 0 || parseFloat(cs.borderBottomRightRadius) > 0;
    if (vis && !isRoot && (image || (ownBg && !rounded)))
      painters.push({
        i: idx,
        x0: rect.left + scrollX,
        y0: top,
        x1: rect.right + scrollX,
        y1: rect.bottom + scrollY,
        image,
      });
    const kids = el.shadowRoot ? [...el.shadowRoot.children, ...el.children] : [...el.children];
    for (const k of kids) visit(k, idx, op, ui, here);
  };
  visit(document.documentElement, -1, 1, false, { copy: false, notCopy: false, link: false, sem: null });

  // The canvas takes the root's background, or the body's when the root has none (CSS propagation).
  const bodyIdx = nodes.findIndex((n, i) => i > 0 && n.p === 0 && n.area === docArea);
  const canvas = nodes[0] && /^(transparent|rgba\(0, 0, 0, 0\))$/.test(nodes[0].bg) && bodyIdx > 0 ? bodyIdx : 0;
  // A grid over the page (first 6000px): each point counts for the topmost box painting a
  // colour there; points under images and photos count for nobody.
  const rows = Math.ceil(Math.min(docH, 6000) / (innerHeight / 10));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < 16; c++) {
      const x = ((c + 0.5) * innerWidth) / 16;
      const y = ((r + 0.5) * Math.min(docH, 6000)) / rows;
      let hit: (typeof painters)[number] | undefined;
      for (let k = painters.length - 1; k >= 0; k--) {
        const b = painters[k]!;
        if (x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1) {
          hit = b;
          break;
        }
      }
      if (hit?.image) continue;
      const n = nodes[hit ? hit.i : canvas];
      if (n) n.cover = (n.cover ?? 0) + 1;
    }
  }

  const names = new Set<string>();
  const scan = (rules: CSSRuleList): void => {
    for (const r of rules) {
      if (r instanceof CSSStyleRule && /^(:root|html)\b/.test(r.selectorText)) {
        for (const p of r.style) if (p.startsWith('--')) names.add(p);
      } else if ('cssRules' in r) scan((r as CSSGroupingRule).cssRules);
      if (r instanceof CSSImportRule && r.styleSheet) {
        try {
          scan(r.styleSheet.cssRules);
        } catch {
          /* cross-origin import */
        }
      }
    }
  };
  for (const sheet of document.styleSheets) {
    try {
      scan(sheet.cssRules);
    } catch {
      /* cross-origin sheet: cssRules is blocked */
    }
  }
  const root = getComputedStyle(document.documentElement);
  const probe = document.createElement('div');
  probe.style.display = 'none';
  document.documentElement.appendChild(probe);
  const vars: ColorVar[] = [];
  for (const name of names) {
    const raw = root.getPropertyValue(name).trim();
    if (!raw || !CSS.supports('color', raw) || /^(inherit|initial|unset|currentcolor)$/i.test(raw)) continue;
    probe.style.color = raw;
    vars.push({ name, value: getComputedStyle(probe).color });
  }
  probe.remove();
  return { nodes, vars };
}

export async function extractColors(page: Page): Promise<ColorsResult> {
  const { nodes, vars } = await evaluateIn(page, collectColors, MAX_NODES);
  return buildPalette(nodes, vars);
}
