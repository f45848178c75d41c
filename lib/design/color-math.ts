/**
 * Color math for the design extractors, Node-side and pure. Inputs are the strings
 * Chromium reports from getComputedStyle: `rgb()`/`rgba()` for sRGB-authored colors, but
 * `oklch()`, `oklab()`, `lab()`, `lch()` and `color(<space> …)` stay in their own space
 * (color-mix() results come back as `color(srgb …)` or `oklab(…)`). Everything is brought
 * to sRGB with r/g/b in 0..1 (possibly out of gamut until clamped) and alpha in 0..1.
 */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}
export interface OkLab {
  L: number;
  a: number;
  b: number;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** A number, percentage (relative to `pctOf`) or `none` (0, per CSS Color 4). */
function num(token: string | undefined, pctOf = 1): number {
  if (token === undefined || token === 'none') return 0;
  if (token.endsWith('%')) return (parseFloat(token) / 100) * pctOf;
  return parseFloat(token);
}

function hue(token: string | undefined): number {
  if (token === undefined || token === 'none') return 0;
  const v = parseFloat(token);
  if (token.endsWith('rad')) return (v * 180) / Math.PI;
  if (token.endsWith('turn')) return v * 360;
  if (token.endsWith('grad')) return v * 0.9;
  return v;
}

/** Splits `a b c / d` or `a, b, c, d` into channel tokens and an alpha token. */
function channels(body: string): { parts: string[]; alpha: string | undefined } {
  const [main = '', slashAlpha] = body.split('/').map((s) => s.trim());
  const parts = main.split(/[\s,]+/).filter(Boolean);
  if (slashAlpha !== undefined) return { parts, alpha: slashAlpha };
  // Legacy comma syntax carries alpha as a fourth value.
  return parts.length === 4 && main.includes(',')
    ? { parts: parts.slice(0, 3), alpha: parts[3] }
    : { parts, alpha: undefined };
}

const toLinear = (c: number): number => {
  const s = Math.sign(c) || 1;
  const x = Math.abs(c);
  return x <= 0.04045 ? c / 12.92 : s * ((x + 0.055) / 1.055) ** 2.4;
};
const toGamma = (c: number): number => {
  const s = Math.sign(c) || 1;
  const x = Math.abs(c);
  return x <= 0.0031308 ? c * 12.92 : s * (1.055 * x ** (1 / 2.4) - 0.055);
};

type Vec3 = [number, number, number];
const mul = (m: readonly number[], v: Vec3): Vec3 => [
  m[0]! * v[0] + m[1]! * v[1] + m[2]! * v[2],
  m[3]! * v[0] + m[4]! * v[1] + m[5]! * v[2],
  m[6]! * v[0] + m[7]! * v[1] + m[8]! * v[2],
];

const XYZ65_TO_LRGB = [
  3.2409699419, -1.5373831776, -0.4986107603, -0.9692436363, 1.8759675015, 0.0415550574, 0.0556300797, -0.2039769589,
  1.0569715142,
];
const P3_TO_XYZ65 = [
  0.486570949, 0.265667693, 0.1982172852, 0.2289745641, 0.6917385218, 0.0792869141, 0, 0.0451133819, 1.0439443689,
];
const D50_TO_D65 = [
  0.9554734528, -0.0230985368, 0.0632593086, -0.0283697069, 1.009995458, 0.0210413989, 0.0123140016, -0.0205076964,
  1.3303659366,
];
const LRGB_TO_LMS = [
  0.4122214708, 0.5363325363, 0.0514459929, 0.2119034982, 0.6806995451, 0.1073969566, 0.0883024619, 0.2817188376,
  0.6299787005,
];
const LMS_TO_OKLAB = [
  0.2104542553, 0.793617785, -0.0040720468, 1.9779984951, -2.428592205, 0.4505937099, 0.0259040371, 0.7827717662,
  -0.808675766,
];
const OKLAB_TO_LMS = [1, 0.3963377774, 0.2158037573, 1, -0.1055613458, -0.0638541728, 1, -0.0894841775, -1.291485548];
const LMS_TO_LRGB = [
  4.0767416621, -3.3077115913, 0.2309699292, -1.2684380046, 2.6097574011, -0.3413193965, -0.0041960863, -0.7034186147,
  1.707614701,
];

function fromLinear(v: Vec3, a: number): Rgba {
  return { r: toGamma(v[0]), g: toGamma(v[1]), b: toGamma(v[2]), a };
}

export function oklabToRgb(L: number, A: number, B: number, alpha = 1): Rgba {
  const lms = mul(OKLAB_TO_LMS, [L, A, B]).map((x) => x ** 3) as Vec3;
  return fromLinear(mul(LMS_TO_LRGB, lms), alpha);
}

export function rgbToOklab(c: Rgba): OkLab {
  const lin: Vec3 = [toLinear(c.r), toLinear(c.g), toLinear(c.b)];
  const lms = mul(LRGB_TO_LMS, lin).map((x) => Math.cbrt(x)) as Vec3;
  const [L, a, b] = mul(LMS_TO_OKLAB, lms);
  return { L, a, b };
}

function labD50ToRgb(L: number, a: number, b: number, alpha: number): Rgba {
  const fy = (L + 16) / 116;
  const fx = fy + a / 500;
  const fz = fy - b / 200;
  const e = 216 / 24389;
  const k = 24389 / 27;
  const inv = (f: number): number => (f ** 3 > e ? f ** 3 : (116 * f - 16) / k);
  const xyz50: Vec3 = [
    (inv(fx) * 0.3457) / 0.3585,
    L > k * e ? fy ** 3 : L / k,
    (inv(fz) * (1 - 0.3457 - 0.3585)) / 0.3585,
  ];
  return fromLinear(mul(XYZ65_TO_LRGB, mul(D50_TO_D65, xyz50)), alpha);
}

/** Parses a CSS color as Chromium serializes computed values; undefined when unknown. */
export function parseCssColor(input: string): Rgba | undefined {
  const s = input.trim().toLowerCase();
  if (s === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const hex = /^#([0-9a-f]{3,8})$/.exec(s)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    if (full.length !== 6 && full.length !== 8) return undefined;
    const byte = (i: number): number => parseInt(full.slice(i, i + 2), 16) / 255;
    return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) : 1 };
  }
  const m = /^([a-z-]+)\((.*)\)$/.exec(s);
  if (!m) return undefined;
  const [, fn, body = ''] = m;
  const { parts, alpha: alphaTok } = channels(body);
  const alpha = alphaTok === undefined ? 1 : clamp01(num(alphaTok));
  const [p0, p1, p2, p3] = parts;
  switch (fn) {
    case 'rgb':
    case 'rgba':
      return { r: num(p0, 255) / 255, g: num(p1, 255) / 255, b: num(p2, 255) / 255, a: alpha };
    case 'hsl':
    case 'hsla':
      return hslToRgb(hue(p0), num(p1, 100) / 100, num(p2, 100) / 100, alpha);
    case 'oklab':
      return oklabToRgb(num(p0), num(p1, 0.4), num(p2, 0.4), alpha);
    case 'oklch': {
      const C = num(p1, 0.4);
      const h = (hue(p2) * Math.PI) / 180;
      return oklabToRgb(num(p0), C * Math.cos(h), C * Math.sin(h), alpha);
    }
    case 'lab':
      return labD50ToRgb(num(p0, 100), num(p1, 125), num(p2, 125), alpha);
    case 'lch': {
      const C = num(p1, 150);
      const h = (hue(p2) * Math.PI) / 180;
      return labD50ToRgb(num(p0, 100), C * Math.cos(h), C * Math.sin(h), alpha);
    }
    case 'color': {
      const [space, c0, c1, c2] = [p0, p1, p2, p3];
      const v: Vec3 = [num(c0), num(c1), num(c2)];
      if (space === 'srgb') return { r: v[0], g: v[1], b: v[2], a: alpha };
      if (space === 'srgb-linear') return fromLinear(v, alpha);
      if (space === 'display-p3')
        return fromLinear(mul(XYZ65_TO_LRGB, mul(P3_TO_XYZ65, v.map(toLinear) as Vec3)), alpha);
      if (space === 'xyz' || space === 'xyz-d65') return fromLinear(mul(XYZ65_TO_LRGB, v), alpha);
      if (space === 'xyz-d50') return fromLinear(mul(XYZ65_TO_LRGB, mul(D50_TO_D65, v)), alpha);
      return undefined;
    }
    default:
      return undefined;
  }
}

function hslToRgb(h: number, s: number, l: number, a: number): Rgba {
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    return l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return { r: f(0), g: f(8), b: f(4), a };
}

export function clampRgb(c: Rgba): Rgba {
  return { r: clamp01(c.r), g: clamp01(c.g), b: clamp01(c.b), a: clamp01(c.a) };
}

/** Source-over compositing of `top` onto `bottom`; the result keeps the union's alpha. */
export function blend(top: Rgba, bottom: Rgba): Rgba {
  const a = top.a + bottom.a * (1 - top.a);
  if (a === 0) return { r: 0, g: 0, b: 0, a: 0 };
  const ch = (t: number, b: number): number => (t * top.a + b * bottom.a * (1 - top.a)) / a;
  return { r: ch(top.r, bottom.r), g: ch(top.g, bottom.g), b: ch(top.b, bottom.b), a };
}

export function toHex(c: Rgba): string {
  const k = clampRgb(c);
  const h = (x: number): string =>
    Math.round(x * 255)
      .toString(16)
      .padStart(2, '0');
  return `#${h(k.r)}${h(k.g)}${h(k.b)}`.toUpperCase();
}

export function toRgbString(c: Rgba): string {
  const k = clampRgb(c);
  const v = (x: number): number => Math.round(x * 255);
  return `rgb(${v(k.r)},${v(k.g)},${v(k.b)})`;
}

/** Euclidean distance in OKLab, scaled ×100 so that ~2 is a just-noticeable difference. */
export function deltaE(x: Rgba, y: Rgba): number {
  const p = rgbToOklab(clampRgb(x));
  const q = rgbToOklab(clampRgb(y));
  return 100 * Math.hypot(p.L - q.L, p.a - q.a, p.b - q.b);
}

/** OKLCH chroma and hue (degrees) of a color. */
export function chromaHue(c: Rgba): { L: number; C: number; h: number } {
  const { L, a, b } = rgbToOklab(clampRgb(c));
  const h = (Math.atan2(b, a) * 180) / Math.PI;
  return { L, C: Math.hypot(a, b), h: h < 0 ? h + 360 : h };
}

export function relativeLuminance(c: Rgba): number {
  const k = clampRgb(c);
  return 0.2126 * toLinear(k.r) + 0.7152 * toLinear(k.g) + 0.0722 * toLinear(k.b);
}

export function contrastRatio(fg: Rgba, bg: Rgba): number {
  const [hi, lo] = [relativeLuminance(fg), relativeLuminance(bg)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG 2.x "large text": at least 24px, or at least 18.66px (14pt) and bold. */
export function isLargeText(fontSizePx: number, fontWeight: number): boolean {
  return fontSizePx >= 24 || (fontSizePx >= 18.66 && fontWeight >= 700);
}

export function wcag(ratio: number, large: boolean): { passesAA: boolean; passesAAA: boolean } {
  return { passesAA: ratio >= (large ? 3 : 4.5), passesAAA: ratio >= (large ? 4.5 : 7) };
}
