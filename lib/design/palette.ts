import type { ContrastIssue, PaletteColor } from '../tasks/design-result.js';
import {
  blend,
  chromaHue,
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
}

export interface ColorVar {
  name: string;
  value: string;
}

export type { ContrastIssue, PaletteColor };
export type ColorRole = PaletteColor['role'];

/** Colors closer than this (OKLab ΔE ×100) are one palette entry: ~1 JND of slack. */
export const MERGE_DELTA_E = 2.5;
/** OKLCH chroma below this reads as a gray. */
const CHROMATIC = 0.05;
const WHITE: Rgba = { r: 1, g: 1, b: 1, a: 1 };

export interface Cluster {
  color: Rgba;
  count: number;
  bgArea: number;
  textLen: number;
  ui: number;
  vars: string[];
}

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

export function buildPalette(nodes: ColorNode[], vars: ColorVar[]): { colors: PaletteColor[]; contrastIssues: ContrastIssue[] } {
  const eff = effectiveBackgrounds(nodes);
  const clusters: Cluster[] = [];
  const add = (c: Rgba, w: Partial<Omit<Cluster, 'color' | 'vars'>>, varName?: string): void => {
    const opaque = { ...c, a: 1 };
    let best: Cluster | undefined;
    let bestD = MERGE_DELTA_E;
    for (const k of clusters) {
      const d = deltaE(k.color, opaque);
      if (d < bestD) [best, bestD] = [k, d];
    }
    if (!best) {
      best = { color: opaque, count: 0, bgArea: 0, textLen: 0, ui: 0, vars: [] };
      clusters.push(best);
    }
    best.count += w.count ?? 0;
    best.bgArea += w.bgArea ?? 0;
    best.textLen += w.textLen ?? 0;
    best.ui += w.ui ?? 0;
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
    if (own && own.a > 0) add(under, { count: 1, bgArea: n.area, ui: n.ui ? 1 : 0 });
    const over = (s: string | null): Rgba | undefined => {
      const c = s ? parseCssColor(s) : undefined;
      return c && c.a > 0 ? blend(withOpacity(c, n.op), under) : undefined;
    };
    for (const s of [n.border, n.fill, n.stroke]) {
      const c = over(s);
      if (c) add(c, { count: 1, ui: n.ui ? 1 : 0 });
    }
    const fg = n.text > 0 ? over(n.fg) : undefined;
    if (!fg) continue;
    add(fg, { count: 1, textLen: n.text, ui: n.ui ? 1 : 0 });
    const ratio = contrastRatio(fg, under);
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

const ROLE_HINTS: [ColorRole, RegExp][] = [
  ['primary', /primary|brand|accent/],
  ['error', /error|danger|destructive|critical/],
  ['success', /success|positive|valid/],
  ['warning', /warn|caution|attention/],
];

function hintedRole(k: Cluster): ColorRole | undefined {
  for (const [role, re] of ROLE_HINTS) if (k.vars.some((v) => re.test(v.toLowerCase()))) return role;
  return undefined;
}

/** Status roles by OKLCH hue for saturated colors that carry no naming hint. */
function hueRole(c: Rgba): ColorRole | undefined {
  const { C, h } = chromaHue(c);
  if (C < 0.1) return undefined;
  if (h < 40 || h >= 345) return 'error';
  if (h >= 125 && h < 165) return 'success';
  if (h >= 60 && h < 105) return 'warning';
  return undefined;
}

export function assignRoles(clusters: readonly Cluster[]): ColorRole[] {
  const roles: ColorRole[] = clusters.map(() => 'neutral');
  const pick = (score: (k: Cluster) => number, exclude: Set<number>): number => {
    let best = -1;
    let bestScore = 0;
    clusters.forEach((k, i) => {
      const s = score(k);
      if (!exclude.has(i) && s > bestScore) [best, bestScore] = [i, s];
    });
    return best;
  };
  const taken = new Set<number>();
  const assign = (i: number, role: ColorRole): void => {
    if (i < 0) return;
    roles[i] = role;
    taken.add(i);
  };
  assign(pick((k) => k.bgArea, taken), 'background');
  assign(pick((k) => k.textLen, taken), 'text');
  const chromatic = (k: Cluster): boolean => chromaHue(k.color).C >= CHROMATIC;
  let primary = clusters.findIndex((k, i) => !taken.has(i) && hintedRole(k) === 'primary');
  if (primary < 0) {
    // Brand color: the chromatic color most used on interactive elements, then overall.
    primary = pick((k) => (chromatic(k) && hintedRole(k) === undefined ? k.ui * 3 + k.count + 0.5 : 0), taken);
  }
  assign(primary, 'primary');
  clusters.forEach((k, i) => {
    if (taken.has(i)) return;
    const role = hintedRole(k) ?? hueRole(k.color);
    if (role && role !== 'primary') roles[i] = role;
  });
  return roles;
}
