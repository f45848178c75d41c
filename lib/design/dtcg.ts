import { parseCssColor, toHex, type Rgba } from './color-math.js';

/**
 * W3C Design Tokens Format Module 2025.10: builders for the token values we emit and a
 * validator for whole token files (the quality tests run every fixture's output through it).
 */
export interface DtcgColor {
  colorSpace: 'srgb';
  components: [number, number, number];
  alpha?: number;
  hex: string;
}
export interface DtcgDimension {
  value: number;
  unit: 'px' | 'rem';
}
export interface DtcgShadowLayer {
  color: DtcgColor;
  offsetX: DtcgDimension;
  offsetY: DtcgDimension;
  blur: DtcgDimension;
  spread: DtcgDimension;
  inset?: boolean;
}
export interface DtcgGradientStop {
  color: DtcgColor;
  position: number;
}

const round = (x: number, d = 4): number => Math.round(x * 10 ** d) / 10 ** d;
const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

export function dtcgColor(c: Rgba): DtcgColor {
  const out: DtcgColor = {
    colorSpace: 'srgb',
    components: [round(clamp01(c.r)), round(clamp01(c.g)), round(clamp01(c.b))],
    hex: toHex(c),
  };
  if (c.a < 1) out.alpha = round(clamp01(c.a));
  return out;
}

export function dtcgDimension(css: string): DtcgDimension | undefined {
  const m = /^(-?[\d.]+)(px|rem)$/.exec(css.trim());
  return m
    ? { value: parseFloat(m[1]!), unit: m[2] as 'px' | 'rem' }
    : css.trim() === '0'
      ? { value: 0, unit: 'px' }
      : undefined;
}

/** Splits on commas (or whitespace) that are not inside parentheses. */
export function splitTopLevel(s: string, sep: ',' | ' '): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (depth === 0 && (sep === ',' ? ch === ',' : /\s/.test(ch))) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** A computed `box-shadow` (Chromium puts the color first) as DTCG shadow layers. */
export function parseBoxShadow(css: string): DtcgShadowLayer[] | undefined {
  if (!css || css === 'none') return undefined;
  const layers: DtcgShadowLayer[] = [];
  for (const layer of splitTopLevel(css, ',')) {
    const tokens = splitTopLevel(layer, ' ');
    let color: Rgba = { r: 0, g: 0, b: 0, a: 1 };
    const lengths: DtcgDimension[] = [];
    let inset = false;
    for (const t of tokens) {
      if (t === 'inset') inset = true;
      else {
        const d = dtcgDimension(t);
        if (d) lengths.push(d);
        else color = parseCssColor(t) ?? color;
      }
    }
    if (lengths.length < 2) return undefined;
    const zero: DtcgDimension = { value: 0, unit: 'px' };
    const l: DtcgShadowLayer = {
      color: dtcgColor(color),
      offsetX: lengths[0]!,
      offsetY: lengths[1]!,
      blur: lengths[2] ?? zero,
      spread: lengths[3] ?? zero,
    };
    if (inset) l.inset = true;
    layers.push(l);
  }
  return layers;
}

/** A computed `*-gradient()` as DTCG stops; positions without a percentage are spread evenly. */
export function parseGradient(css: string): { kind: string; stops: DtcgGradientStop[] } | undefined {
  const m = /^(repeating-)?(linear|radial|conic)-gradient\((.*)\)$/s.exec(css.trim());
  if (!m) return undefined;
  const raw: { color: Rgba; pos?: number }[] = [];
  for (const arg of splitTopLevel(m[3] ?? '', ',')) {
    const parts = splitTopLevel(arg, ' ');
    const colorTok = parts.find((p) => parseCssColor(p));
    if (!colorTok) continue;
    const pct = parts.find((p) => /^-?[\d.]+%$/.test(p));
    raw.push({ color: parseCssColor(colorTok)!, pos: pct === undefined ? undefined : parseFloat(pct) / 100 });
  }
  if (raw.length < 2) return undefined;
  const stops = raw.map((s, i) => ({
    color: dtcgColor(s.color),
    position: round(clamp01(s.pos ?? i / (raw.length - 1))),
  }));
  return { kind: m[2]!, stops };
}

const TYPES = new Set([
  'color',
  'dimension',
  'fontFamily',
  'fontWeight',
  'duration',
  'cubicBezier',
  'number',
  'strokeStyle',
  'border',
  'transition',
  'shadow',
  'gradient',
  'typography',
]);
const COLOR_SPACES = new Set([
  'srgb',
  'srgb-linear',
  'hsl',
  'hwb',
  'lab',
  'lch',
  'oklab',
  'oklch',
  'display-p3',
  'a98-rgb',
  'prophoto-rgb',
  'rec2020',
  'xyz-d65',
  'xyz-d50',
]);

type Json = unknown;
const isObj = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAlias = (v: Json): v is string => typeof v === 'string' && /^\{[^{}]+\}$/.test(v);

function checkValue(type: string, v: Json, path: string, errs: string[]): void {
  if (isAlias(v)) return;
  const fail = (msg: string): void => void errs.push(`${path}: ${msg}`);
  const dim = (d: Json, units: string[], p: string): void => {
    if (isAlias(d)) return;
    if (!isObj(d) || typeof d.value !== 'number' || !Number.isFinite(d.value) || !units.includes(String(d.unit)))
      errs.push(`${p}: expected {value:number, unit:${units.join('|')}}`);
  };
  switch (type) {
    case 'color': {
      if (!isObj(v) || !COLOR_SPACES.has(String(v.colorSpace))) return fail('color needs a known colorSpace');
      const comps = v.components;
      if (
        !Array.isArray(comps) ||
        comps.length !== 3 ||
        !comps.every((c) => c === 'none' || (typeof c === 'number' && Number.isFinite(c)))
      )
        fail('color components must be 3 numbers');
      if (v.alpha !== undefined && (typeof v.alpha !== 'number' || v.alpha < 0 || v.alpha > 1))
        fail('alpha must be in 0..1');
      if (v.hex !== undefined && (typeof v.hex !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(v.hex)))
        fail('hex must be #RRGGBB');
      return;
    }
    case 'dimension':
      return dim(v, ['px', 'rem'], path);
    case 'duration':
      return dim(v, ['ms', 's'], path);
    case 'number':
      if (typeof v !== 'number') fail('expected a number');
      return;
    case 'fontWeight':
      if (!(typeof v === 'number' && v >= 1 && v <= 1000) && typeof v !== 'string')
        fail('fontWeight must be 1..1000 or a keyword');
      return;
    case 'fontFamily':
      if (typeof v !== 'string' && !(Array.isArray(v) && v.every((x) => typeof x === 'string')))
        fail('fontFamily must be a string or string[]');
      return;
    case 'cubicBezier':
      if (
        !Array.isArray(v) ||
        v.length !== 4 ||
        !v.every((x) => typeof x === 'number') ||
        [v[0], v[2]].some((x) => (x as number) < 0 || (x as number) > 1)
      )
        fail('cubicBezier must be [x1,y1,x2,y2] with x in 0..1');
      return;
    case 'shadow': {
      const layers = Array.isArray(v) ? v : [v];
      if (layers.length === 0) return fail('shadow needs at least one layer');
      layers.forEach((l, i) => {
        const p = `${path}[${i}]`;
        if (!isObj(l)) return void errs.push(`${p}: shadow layer must be an object`);
        checkValue('color', l.color, `${p}.color`, errs);
        for (const k of ['offsetX', 'offsetY', 'blur', 'spread']) dim(l[k], ['px', 'rem'], `${p}.${k}`);
        if (l.inset !== undefined && typeof l.inset !== 'boolean') errs.push(`${p}: inset must be boolean`);
      });
      return;
    }
    case 'gradient':
      if (!Array.isArray(v) || v.length === 0) return fail('gradient must be a non-empty array of stops');
      v.forEach((s, i) => {
        if (!isObj(s)) return void errs.push(`${path}[${i}]: stop must be an object`);
        checkValue('color', s.color, `${path}[${i}].color`, errs);
        if (typeof s.position !== 'number' || s.position < 0 || s.position > 1)
          errs.push(`${path}[${i}]: position must be in 0..1`);
      });
      return;
    default:
      if (v === undefined) fail('missing $value');
  }
}

/** Errors of a DTCG document (empty when valid). */
export function validateDtcg(doc: Json): string[] {
  const errs: string[] = [];
  const walk = (node: Json, path: string, inherited: string | undefined): void => {
    if (!isObj(node)) return void errs.push(`${path || '<root>'}: groups and tokens must be objects`);
    const type = typeof node.$type === 'string' ? node.$type : inherited;
    if (node.$type !== undefined && !TYPES.has(String(node.$type)))
      errs.push(`${path}: unknown $type ${String(node.$type)}`);
    if ('$value' in node) {
      if (!type) return void errs.push(`${path}: token has no $type (own or inherited)`);
      return checkValue(type, node.$value, path, errs);
    }
    for (const [name, child] of Object.entries(node)) {
      if (name.startsWith('$')) continue;
      if (/[{}.]/.test(name)) errs.push(`${path}.${name}: names may not contain { } or .`);
      walk(child, path ? `${path}.${name}` : name, type);
    }
  };
  walk(doc, '', undefined);
  return errs;
}
