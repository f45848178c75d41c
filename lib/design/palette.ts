import type { ContrastIssue, PaletteColor } from '../tasks/design-result.js';
import { assignRoles } from './roles.js';
import {
  blend,
  contrastRatio,
  deltaE,
  isLargeText,
  parseCssColor,
  toHex,
  toRgbString,
  wcag,
  type Rgba,
} from './color-math.js';

/**
 * Turns the raw computed colors collected in the page into a palette with roles and
 * WCAG contrast issues. Pure, so the choices (blending, merging, role rules) are unit-tested.
 */

/** One element as collected in the page; `p` is the parent's index (-1 for the root). */
export interface ColorNode {
  p: number;
  vis: boolean;
  bg: string;
  fg: string;
  border: string | null;
  fill: string | null;
  stroke: string | null;
  /** Characters of direct text. */
  text: number;
  fs: number;
  fw: number;
  area: number;
  /** Product of the element's and its ancestors' opacity. */
  op: number;
  ui: boolean;
  /** Characters of body copy: direct text inside p/li/td/dd, not in a link, heading, code or control. */
  copy?: number;
  /** Text of a link. */
  link?: boolean;
  /** A button-like control with its own background. */
  button?: boolean;
  /** A wide band with its own background near the top of the page (a header bar). */
  bar?: boolean;
  /** A state the element's (or a close ancestor's) class, id or ARIA names. */
  sem?: 'error' | 'success' | 'warning' | null;
  /** Points of the page grid where this box's background is what shows. */
  cover?: number;
}

export interface ColorVar {
  name: string;
  value: string;
}

export type { ContrastIssue, PaletteColor };
export type ColorRole = PaletteColor['role'];

/** Colors closer than this (OKLab ΔE ×100) are one palette entry: ~1 JND of slack. */
export const MERGE_DELTA_E = 2.5;
const WHITE: Rgba = { r: 1, g: 1, b: 1, a: 1 };

export interface Cluster {
  color: Rgba;
  count: number;
  bgArea: number;
  textLen: number;
  ui: number;
  vars: string[];
  /** Evidence for roles; see ColorNode. */
  copyLen: number;
  links: number;
  buttons: number;
  bars: number;
  cover: number;
  sem: Record<'error' | 'success' | 'warning', number>;
  /** Body-copy characters by the background they sit on (text roles prefer copy on the page background). */
  copyOn: { bg: Rgba; chars: number }[];
}

type Weights = Partial<
  Pick<Cluster, 'count' | 'bgArea' | 'textLen' | 'ui' | 'copyLen' | 'links' | 'buttons' | 'bars' | 'cover'>
> & { sem?: ColorNode['sem']; copyOn?: { bg: Rgba; chars: number } };
const SUMS = ['count', 'bgArea', 'textLen', 'ui', 'copyLen', 'links', 'buttons', 'bars', 'cover'] as const;

function withOpacity(c: Rgba, op: number): Rgba {
  return { ...c, a: c.a * op };
}

/** Effective opaque background behind each node: its own and its ancestors' backgrounds composited over the canvas. */
export function effectiveBackgrounds(nodes: ColorNode[]): Rgba[] {
  const out: Rgba[] = [];
  nodes.forEach((n, i) => {
    const under = n.p >= 0 && n.p < i ? out[n.p]! : WHITE;
    const own = parseCssColor(n.bg);
    out.push(own && own.a > 0 ? blend(withOpacity(own, n.op), under) : under);
  });
  return out;
}

export function buildPalette(
  nodes: ColorNode[],
  vars: ColorVar[],
): { colors: PaletteColor[]; contrastIssues: ContrastIssue[] } {
  const eff = effectiveBackgrounds(nodes);
  const clusters: Cluster[] = [];
  const add = (c: Rgba, w: Weights, varName?: string): void => {
    const opaque = { ...c, a: 1 };
    let best: Cluster | undefined;
    let bestD = MERGE_DELTA_E;
    for (const k of clusters) {
      const d = deltaE(k.color, opaque);
      if (d < bestD) [best, bestD] = [k, d];
    }
    if (!best) {
      best = {
        color: opaque,
        count: 0,
        bgArea: 0,
        textLen: 0,
        ui: 0,
        vars: [],
        copyLen: 0,
        links: 0,
        buttons: 0,
        bars: 0,
        cover: 0,
        sem: { error: 0, success: 0, warning: 0 },
        copyOn: [],
      };
      clusters.push(best);
    }
    for (const k of SUMS) best[k] += w[k] ?? 0;
    if (w.sem) best.sem[w.sem] += 1;
    if (w.copyOn) best.copyOn.push(w.copyOn);
    if (varName) best.vars.push(varName);
  };
  const issues = new Map<string, ContrastIssue>();
  // Heavier usages first, so a cluster's representative is its dominant member.
  const order = nodes.map((_, i) => i).sort((x, y) => nodes[y]!.area - nodes[x]!.area);
  for (const i of order) {
    const n = nodes[i]!;
    if (!n.vis || n.op <= 0) continue;
    const under = eff[i]!;
    const own = parseCssColor(n.bg);
    const sem = n.sem ?? null;
    if (own && own.a > 0)
      add(under, { count: 1, bgArea: n.area, ui: n.ui ? 1 : 0, buttons: n.button ? 1 : 0, bars: n.bar ? 1 : 0, sem });
    // The canvas shows through where nothing else paints: it counts even without a colour of its own.
    if (n.cover) add(under, { cover: n.cover });
    const over = (s: string | null): Rgba | undefined => {
      const c = s ? parseCssColor(s) : undefined;
      return c && c.a > 0 ? blend(withOpacity(c, n.op), under) : undefined;
    };
    for (const s of [n.border, n.fill, n.stroke]) {
      const c = over(s);
      if (c) add(c, { count: 1, ui: n.ui ? 1 : 0, sem });
    }
    const fg = n.text > 0 ? over(n.fg) : undefined;
    if (!fg) continue;
    const ratio = contrastRatio(fg, under);
    // Copy that barely differs from the colour under it sits on a photo the colours cannot see.
    const copy = ratio >= 1.5 ? (n.copy ?? 0) : 0;
    add(fg, {
      count: 1,
      textLen: n.text,
      ui: n.ui ? 1 : 0,
      copyLen: copy,
      links: n.link ? 1 : 0,
      sem,
      ...(copy ? { copyOn: { bg: under, chars: copy } } : {}),
    });
    const verdict = wcag(ratio, isLargeText(n.fs, n.fw));
    if (verdict.passesAAA) continue;
    const key = `${toHex(fg)}|${toHex(under)}`;
    const prev = issues.get(key);
    const issue = { fg: toHex(fg), bg: toHex(under), ratio: Math.round(ratio * 100) / 100, ...verdict };
    // The same pair at two sizes keeps the stricter (small-text) verdict.
    if (!prev || (prev.passesAA && !issue.passesAA)) issues.set(key, issue);
  }
  for (const v of vars) {
    const c = parseCssColor(v.value);
    // A translucent variable has no color of its own until used; its uses were blended above.
    if (c && c.a >= 1) add(c, {}, v.name);
  }
  const roles = assignRoles(clusters);
  const colors = clusters
    .map((k, i) => ({ hex: toHex(k.color), rgb: toRgbString(k.color), count: k.count, role: roles[i]! }))
    .sort((x, y) => y.count - x.count);
  return { colors, contrastIssues: [...issues.values()].sort((x, y) => x.ratio - y.ratio) };
}
