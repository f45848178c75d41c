import type { Page } from 'playwright-core';
import { parseCssColor } from './color-math.js';
import { dtcgColor, dtcgDimension, parseBoxShadow, parseGradient, splitTopLevel } from './dtcg.js';
import { evaluateIn } from './evaluate.js';
import type { TokensResult } from '../tasks/design-result.js';

interface RawTokens {
  spacing: Record<string, number>;
  radii: Record<string, number>;
  shadows: Record<string, number>;
  gradients: Record<string, number>;
  durations: Record<string, number>;
  vars: { name: string; value: string; color?: string }[];
}
export interface Counted<T> {
  value: T;
  count: number;
}
export type { TokensResult };

/** Browser side: histograms of computed spacing, radii, shadows, gradients and motion, plus :root custom properties. */
function collectTokens(maxNodes: number): RawTokens {
  const raw: RawTokens = { spacing: {}, radii: {}, shadows: {}, gradients: {}, durations: {}, vars: [] };
  const bump = (h: Record<string, number>, k: string): void => void (h[k] = (h[k] ?? 0) + 1);
  let n = 0;
  const visit = (root: Element | ShadowRoot): void => {
    for (const el of root.children) {
      if (n++ > maxNodes) return;
      const tag = el.tagName.toUpperCase();
      if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'HEAD' || tag === 'TEMPLATE') continue;
      const cs = getComputedStyle(el);
      if (cs.display === 'none') continue;
      for (const p of [
        'marginTop',
        'marginRight',
        'marginBottom',
        'marginLeft',
        'paddingTop',
        'paddingRight',
        'paddingBottom',
        'paddingLeft',
        'rowGap',
        'columnGap',
      ] as const) {
        const v = parseFloat(cs[p]);
        if (v > 0 && v <= 256 && cs[p].endsWith('px')) bump(raw.spacing, String(Math.round(v * 100) / 100));
      }
      for (const p of [
        'borderTopLeftRadius',
        'borderTopRightRadius',
        'borderBottomRightRadius',
        'borderBottomLeftRadius',
      ] as const) {
        if (parseFloat(cs[p]) > 0) bump(raw.radii, cs[p]);
      }
      if (cs.boxShadow !== 'none') bump(raw.shadows, cs.boxShadow);
      if (/gradient\(/.test(cs.backgroundImage)) bump(raw.gradients, cs.backgroundImage);
      for (const list of [cs.transitionDuration, cs.animationDuration]) {
        for (const d of list.split(',')) {
          const ms = d.trim().endsWith('ms') ? parseFloat(d) : parseFloat(d) * 1000;
          if (ms > 0) bump(raw.durations, String(ms));
        }
      }
      if (el.shadowRoot) visit(el.shadowRoot);
      visit(el);
    }
  };
  visit(document.documentElement);
  const names = new Set<string>();
  const scan = (rules: CSSRuleList): void => {
    for (const r of rules) {
      if (r instanceof CSSStyleRule && /^(:root|html)\b/.test(r.selectorText))
        for (const p of r.style) if (p.startsWith('--')) names.add(p);
      if ('cssRules' in r) scan((r as CSSGroupingRule).cssRules);
    }
  };
  for (const s of document.styleSheets) {
    try {
      scan(s.cssRules);
    } catch {
      /* cross-origin sheet: cssRules is blocked */
    }
  }
  for (const p of document.documentElement.style) if (p.startsWith('--')) names.add(p);
  const root = getComputedStyle(document.documentElement);
  const probe = document.createElement('div');
  probe.style.display = 'none';
  document.documentElement.appendChild(probe);
  for (const name of names) {
    const value = root.getPropertyValue(name).trim();
    let color: string | undefined;
    if (value && CSS.supports('color', value) && !/^(inherit|initial|unset|currentcolor)$/i.test(value)) {
      probe.style.color = value;
      color = getComputedStyle(probe).color;
    }
    raw.vars.push(color ? { name, value, color } : { name, value });
  }
  probe.remove();
  return raw;
}

const counted = <T>(h: Record<string, number>, conv: (k: string) => T): Counted<T>[] =>
  Object.entries(h)
    .map(([k, count]) => ({ value: conv(k), count }))
    .sort((a, b) => b.count - a.count);

const tokenName = (s: string): string => s.replace(/^--/, '').replace(/[{}.$]/g, '-') || 'token';

export function buildTokens(raw: RawTokens): TokensResult {
  const spacing = counted(raw.spacing, Number).sort((a, b) => a.value - b.value);
  const radii = counted(raw.radii, String);
  const shadows = counted(raw.shadows, String);
  const gradients = counted(raw.gradients, String);
  const motionDurationsMs = Object.keys(raw.durations)
    .map(Number)
    .sort((a, b) => a - b);
  const group = (type: string): Record<string, unknown> => ({ $type: type });
  const color = group('color');
  const dimension = group('dimension');
  const space = group('dimension');
  const radius = group('dimension');
  const shadow = group('shadow');
  const gradient = group('gradient');
  const duration = group('duration');
  for (const v of raw.vars) {
    const c = v.color ? parseCssColor(v.color) : undefined;
    const d = dtcgDimension(v.value);
    const ms = /^([\d.]+)(ms|s)$/.exec(v.value);
    if (c) color[tokenName(v.name)] = { $value: dtcgColor(c) };
    else if (d) dimension[tokenName(v.name)] = { $value: d };
    else if (ms) duration[tokenName(v.name)] = { $value: { value: parseFloat(ms[1]!), unit: ms[2] } };
  }
  spacing.forEach((s, i) => (space[`spacing-${i + 1}`] = { $value: { value: s.value, unit: 'px' } }));
  radii
    .map((r) => dtcgDimension(r.value))
    .filter((d): d is NonNullable<typeof d> => d !== undefined)
    .forEach((d, i) => (radius[`radius-${i + 1}`] = { $value: d }));
  shadows.forEach((s, i) => {
    const layers = parseBoxShadow(s.value);
    if (layers) shadow[`shadow-${i + 1}`] = { $value: layers.length === 1 ? layers[0] : layers };
  });
  gradients.forEach((g, i) => {
    // A multi-layer background yields its first gradient layer as the DTCG gradient.
    const layer = splitTopLevel(g.value, ',').find((l) => /gradient\(/.test(l));
    const parsed = layer ? parseGradient(layer) : undefined;
    if (parsed) gradient[`gradient-${i + 1}`] = { $value: parsed.stops };
  });
  motionDurationsMs.forEach((ms, i) => (duration[`duration-${i + 1}`] = { $value: { value: ms, unit: 'ms' } }));
  const dtcg: Record<string, unknown> = {};
  for (const [name, g] of Object.entries({ color, dimension, spacing: space, radius, shadow, gradient, duration })) {
    if (Object.keys(g).length > 1) dtcg[name] = g;
  }
  return {
    dtcg,
    spacing,
    radii,
    shadows,
    gradients,
    motionDurationsMs,
    cssVariables: raw.vars.map(({ name, value }) => ({ name, value })),
  };
}

export async function extractTokens(page: Page): Promise<{ tokens: TokensResult }> {
  return { tokens: buildTokens(await evaluateIn(page, collectTokens, 6000)) };
}
