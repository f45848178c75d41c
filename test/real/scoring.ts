import { deltaE, parseCssColor } from '../../lib/design/color-math.js';
import type { FontEntry } from '../../lib/design/fonts.js';
import type { LogoResult } from '../../lib/design/logo.js';
import type { PaletteColor } from '../../lib/design/palette.js';
import type { PageTruth } from './corpus.js';

/**
 * The facts a designer checks first on a real page, scored against our ground truth.
 * Shared by the `real` test project and `npm run bench:design -- --real`.
 */
export const FACTS = ['text', 'primary', 'background', 'logo', 'bodyFont', 'headingFont'] as const;
export type Fact = (typeof FACTS)[number];

/** The bar of issue 9; the heading font is reported but has no bar of its own. */
export const BARS: Partial<Record<Fact, number>> = {
  text: 0.95,
  primary: 0.9,
  background: 0.95,
  logo: 0.9,
  bodyFont: 0.95,
};

/** Same tolerance as the fixture corpus: a little above the extractor's merge radius. */
const MATCH_DELTA_E = 3;

export interface PageScore {
  ok: Record<Fact, boolean>;
  got: Record<Fact, string>;
}

export interface ExtractedFacts {
  colors: PaletteColor[];
  fonts: FontEntry[];
  logo: LogoResult;
}

const near = (a: string, b: string): boolean => {
  const x = parseCssColor(a);
  const y = parseCssColor(b);
  return x !== undefined && y !== undefined && deltaE(x, y) <= MATCH_DELTA_E;
};

/** The family serving a usage: one whose main usage it is first, then one that also serves it; most used first. */
function familyFor(fonts: FontEntry[], usage: FontEntry['usage']): string {
  const serves = (f: FontEntry): boolean => (f.usages ?? [f.usage]).includes(usage);
  const rank = (f: FontEntry): number => (f.usage === usage ? 1e9 : 0) + f.count;
  return [...fonts].filter(serves).sort((a, b) => rank(b) - rank(a))[0]?.family ?? '';
}

function logoOk(got: LogoResult, want: PageTruth['logo']): boolean {
  switch (want.kind) {
    case 'none':
      return !got.found;
    case 'text':
      // A wordmark may be reported as text or not at all; never as an image or an icon.
      return !got.found || (got.type === 'text' && (got.alt ?? '').toLowerCase().includes(want.text.toLowerCase()));
    case 'svg':
      return got.found && got.type === 'svg' && (got.svgSource ?? '').includes(want.svgIncludes);
    default:
      return got.found && got.type === want.kind && (got.src ?? '').endsWith(want.srcEndsWith);
  }
}

function showLogo(l: LogoResult): string {
  if (!l.found) return 'none';
  if (l.type === 'text') return `text "${l.alt ?? ''}"`;
  if (l.type === 'svg') return `svg ${(l.alt ?? '').slice(0, 20)}`;
  return `${l.type} …${(l.src ?? '').split('/').slice(-2).join('/').slice(-40)}`;
}

export function showTruth(gt: PageTruth): Record<Fact, string> {
  const l = gt.logo;
  return {
    text: gt.text,
    primary: gt.primary.join('|'),
    background: gt.background,
    logo:
      l.kind === 'none'
        ? 'none'
        : l.kind === 'text'
          ? `text "${l.text}"`
          : l.kind === 'svg'
            ? `svg ${l.svgIncludes}`
            : `${l.kind} …${l.srcEndsWith}`,
    bodyFont: gt.bodyFamily,
    headingFont: gt.headingFamily,
  };
}

export function scorePage(x: ExtractedFacts, gt: PageTruth): PageScore {
  const role = (r: PaletteColor['role']): string => x.colors.find((c) => c.role === r)?.hex ?? '-';
  const got: Record<Fact, string> = {
    text: role('text'),
    primary: role('primary'),
    background: role('background'),
    logo: showLogo(x.logo),
    bodyFont: familyFor(x.fonts, 'body') || '-',
    headingFont: familyFor(x.fonts, 'heading') || '-',
  };
  const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
  return {
    got,
    ok: {
      text: near(got.text, gt.text),
      primary: gt.primary.some((p) => near(got.primary, p)),
      background: near(got.background, gt.background),
      logo: logoOk(x.logo, gt.logo),
      bodyFont: same(got.bodyFont, gt.bodyFamily),
      headingFont: same(got.headingFont, gt.headingFamily),
    },
  };
}

export function totals(scores: PageScore[]): Record<Fact, number> {
  const out = {} as Record<Fact, number>;
  for (const f of FACTS) out[f] = scores.length ? scores.filter((s) => s.ok[f]).length / scores.length : 0;
  return out;
}

/** A per-page table (expected → got, ✗ where wrong) and the totals, for the console. */
export function formatTable(rows: { id: string; gt: PageTruth; score: PageScore }[]): string {
  const cell = (want: string, got: string, ok: boolean): string => (ok ? got : `✗ ${got} (want ${want})`);
  const lines = rows.map(({ id, gt, score }) => {
    const want = showTruth(gt);
    return [id.padEnd(18), ...FACTS.map((f) => `${f}: ${cell(want[f], score.got[f], score.ok[f])}`)].join('  ');
  });
  const t = totals(rows.map((r) => r.score));
  const sum = FACTS.map((f) => `${f} ${t[f].toFixed(2)}${BARS[f] !== undefined ? ` (bar ${BARS[f]})` : ''}`).join('  ');
  return `${lines.join('\n')}\n\ntotals over ${rows.length} pages: ${sum}`;
}
