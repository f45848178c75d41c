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
 * colors and parent index so Node can composite backgrounds; plus the custom properties
 * declared on :root that hold colors, resolved by Chromium itself.
 */
function collectColors(maxNodes: number): { nodes: ColorNode[]; vars: ColorVar[] } {
  const nodes: ColorNode[] = [];
  const SKIP = new Set(['SCRIPT', 'STYLE', 'HEAD', 'TEMPLATE', 'NOSCRIPT', 'META', 'LINK', 'TITLE', 'DEFS', 'SYMBOL', 'MASK', 'CLIPPATH', 'LINEARGRADIENT', 'RADIALGRADIENT']);
  const UI = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'LABEL']);
  const SHAPES = new Set(['PATH', 'RECT', 'CIRCLE', 'ELLIPSE', 'POLYGON', 'POLYLINE', 'LINE', 'TEXT']);
  const docArea = Math.max(document.documentElement.scrollWidth, innerWidth) * Math.max(document.documentElement.scrollHeight, innerHeight);
  const visit = (el: Element, parent: number, parentOp: number, parentUi: boolean): void => {
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
    const side = (['Top', 'Right', 'Bottom', 'Left'] as const).find((s) => parseFloat(cs[`border${s}Width`]) > 0 && cs[`border${s}Style`] !== 'none');
    const shape = el instanceof SVGElement && SHAPES.has(tag);
    const idx = nodes.length;
    nodes.push({
      p: parent,
      vis: cs.visibility !== 'hidden' && (area > 0 || isRoot),
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
    });
    const kids = el.shadowRoot ? [...el.shadowRoot.children, ...el.children] : [...el.children];
    for (const k of kids) visit(k, idx, op, ui);
  };
  visit(document.documentElement, -1, 1, false);

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
