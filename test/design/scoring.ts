import { z } from 'zod';
import { deltaE, parseCssColor } from '../../lib/design/color-math.js';
import type { PaletteColor, ContrastIssue } from '../../lib/design/palette.js';
import type { ImageEntry } from '../../lib/design/images.js';
import type { IconEntry } from '../../lib/design/icons.js';
import type { FontEntry } from '../../lib/design/fonts.js';
import type { LogoResult } from '../../lib/design/logo.js';

/** Ground truth of one fixture site (test/fixtures/design/<site>/ground-truth.json). */
export const GroundTruthSchema = z.object({
  colors: z.array(z.object({ hex: z.string().regex(/^#[0-9A-F]{6}$/), role: z.string().optional() })),
  contrastIssues: z.array(z.object({ fg: z.string(), bg: z.string(), passesAA: z.boolean() })).optional(),
  logo: z.object({
    found: z.boolean(),
    type: z.enum(['img', 'svg', 'background']).optional(),
    srcEndsWith: z.string().optional(),
    svgIncludes: z.string().optional(),
  }),
  fonts: z.array(
    z.object({
      family: z.string(),
      weights: z.array(z.number()),
      source: z.string(),
      usage: z.string().optional(),
      faceUrlEndsWith: z.string().optional(),
      crossOrigin: z.boolean().optional(),
    }),
  ),
  images: z.array(
    z.object({
      srcEndsWith: z.string().optional(),
      srcStartsWith: z.string().optional(),
      svgIncludes: z.string().optional(),
      type: z.string(),
      naturalWidth: z.number(),
      naturalHeight: z.number(),
    }),
  ),
  icons: z.array(z.object({ match: z.string(), kind: z.string(), count: z.number(), style: z.string() })),
  mergedNote: z.string().optional(),
  tokens: z
    .object({
      motionDurationsMs: z.array(z.number()),
      radiiInclude: z.array(z.string()),
      spacingInclude: z.array(z.number()),
      shadowCount: z.number(),
      gradientCount: z.number(),
      cssVariablesInclude: z.array(z.string()),
      dtcgPaths: z.array(z.string()),
    })
    .optional(),
});
export type GroundTruth = z.infer<typeof GroundTruthSchema>;

export interface Score {
  precision: number;
  recall: number;
  problems: string[];
}

/** The quality bar's perceptual tolerance: a little above the extractor's merge radius. */
export const MATCH_DELTA_E = 3;

const ratio = (n: number, d: number): number => (d === 0 ? 1 : n / d);

/** Precision/recall over two lists, given a predicate; `problems` names what failed to match. */
function pr<A, B>(got: A[], want: B[], match: (a: A, b: B) => boolean, show: (x: A | B) => string): Score {
  const matchedGot = got.filter((a) => want.some((b) => match(a, b)));
  const missed = want.filter((b) => !got.some((a) => match(a, b)));
  const extra = got.filter((a) => !want.some((b) => match(a, b)));
  return {
    precision: ratio(matchedGot.length, got.length),
    recall: ratio(want.length - missed.length, want.length),
    problems: [...missed.map((b) => `missing ${show(b)}`), ...extra.map((a) => `unexpected ${show(a)}`)],
  };
}

const near = (x: string, y: string): boolean => deltaE(parseCssColor(x)!, parseCssColor(y)!) <= MATCH_DELTA_E;

/**
 * Colors are matched one-to-one, nearest pairs first, so two ground-truth colors can never
 * both be "found" through a single extracted color.
 */
export function matchColors<T extends { hex: string }>(got: T[], want: { hex: string }[]): Map<number, T> {
  const pairs: { w: number; g: number; d: number }[] = [];
  want.forEach((w, wi) =>
    got.forEach((g, gi) => pairs.push({ w: wi, g: gi, d: deltaE(parseCssColor(w.hex)!, parseCssColor(g.hex)!) })),
  );
  const byWant = new Map<number, T>();
  const usedGot = new Set<number>();
  for (const p of pairs.filter((x) => x.d <= MATCH_DELTA_E).sort((x, y) => x.d - y.d)) {
    if (byWant.has(p.w) || usedGot.has(p.g)) continue;
    byWant.set(p.w, got[p.g]!);
    usedGot.add(p.g);
  }
  return byWant;
}

export function scoreColors(got: PaletteColor[], issues: ContrastIssue[], gt: GroundTruth): Score {
  const matched = matchColors(got, gt.colors);
  const hits = new Set(matched.values());
  const problems = [
    ...gt.colors.filter((_, i) => !matched.has(i)).map((w) => `missing ${w.hex}${w.role ? `(${w.role})` : ''}`),
    ...got.filter((g) => !hits.has(g)).map((g) => `unexpected ${g.hex}(${g.role})`),
  ];
  gt.colors.forEach((want, i) => {
    const hit = matched.get(i);
    if (want.role && hit && hit.role !== want.role)
      problems.push(`role of ${want.hex}: got ${hit.role}, want ${want.role}`);
  });
  for (const want of gt.contrastIssues ?? []) {
    const hit = issues.find((x) => near(x.fg, want.fg) && near(x.bg, want.bg));
    if (!hit) problems.push(`missing contrast issue ${want.fg} on ${want.bg}`);
    else if (hit.passesAA !== want.passesAA)
      problems.push(`contrast ${want.fg} on ${want.bg}: passesAA ${hit.passesAA}`);
  }
  return { precision: ratio(hits.size, got.length), recall: ratio(matched.size, gt.colors.length), problems };
}

export function scoreImages(got: ImageEntry[], gt: GroundTruth): Score {
  const s = pr(
    got,
    gt.images,
    (a, b) =>
      a.type === b.type &&
      a.naturalWidth === b.naturalWidth &&
      a.naturalHeight === b.naturalHeight &&
      (b.srcEndsWith
        ? a.src.endsWith(b.srcEndsWith)
        : b.srcStartsWith
          ? a.src.startsWith(b.srcStartsWith)
          : (a.svgSource ?? '').includes(b.svgIncludes ?? '\u0000')),
    (x) =>
      'src' in x
        ? `${x.type} ${x.src.slice(0, 60) || 'inline svg'} ${x.naturalWidth}x${x.naturalHeight}`
        : JSON.stringify(x),
  );
  return s;
}

export function scoreIcons(got: IconEntry[], gt: GroundTruth): Score {
  return pr(
    got,
    gt.icons,
    (a, b) => (a.source ?? '').includes(b.match) && a.kind === b.kind && a.count === b.count && a.style === b.style,
    (x) => ('hash' in x ? `${x.kind} ${x.style} x${x.count} ${(x.source ?? '').slice(0, 60)}` : JSON.stringify(x)),
  );
}

export function scoreFonts(got: FontEntry[], gt: GroundTruth): Score {
  return pr(
    got,
    gt.fonts,
    (a, b) =>
      a.family.toLowerCase() === b.family.toLowerCase() &&
      JSON.stringify(a.weights) === JSON.stringify(b.weights) &&
      a.source === b.source &&
      (!b.usage || a.usage === b.usage) &&
      (!b.faceUrlEndsWith || (a.faceUrl ?? '').endsWith(b.faceUrlEndsWith)),
    (x) => `${x.family} [${x.weights.join(',')}] ${x.source}${'usage' in x && x.usage ? ` ${x.usage}` : ''}`,
  );
}

export function scoreLogo(got: LogoResult, gt: GroundTruth): Score {
  const want = gt.logo;
  const ok =
    got.found === want.found &&
    (!want.found ||
      (got.type === want.type &&
        (!want.srcEndsWith || (got.src ?? '').endsWith(want.srcEndsWith)) &&
        (!want.svgIncludes || (got.svgSource ?? '').includes(want.svgIncludes))));
  return {
    precision: ok ? 1 : 0,
    recall: ok ? 1 : 0,
    problems: ok ? [] : [`logo: got ${JSON.stringify({ ...got, svgSource: undefined })}`],
  };
}
