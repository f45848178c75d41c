import { chromaHue, deltaE } from './color-math.js';
import type { Cluster, ColorRole } from './palette.js';

/**
 * Colour roles from evidence, pure. `background` is what shows behind the content over
 * most of the page; `text` is the colour of body copy by characters; `primary` is the
 * brand or accent colour (named custom properties, then buttons, header bands and links);
 * status roles come only from names (custom properties, classes, ARIA states), never from
 * a hue. One colour has one role.
 */

/** Backgrounds this close (OKLab ΔE ×100) count as the page background for body copy. */
const SAME_BACKGROUND = 3;
/** OKLCH chroma below this reads as a grey. */
const CHROMATIC = 0.05;

/** Custom properties that name the brand colour itself, not one of its tints or states. */
const PRIMARY_VAR =
  /^--(?:[a-z0-9]+-)*?(?:color-)?(?:brand|primary|accent)(?:-(?:color|colour|background|bg|base|500|600|main))?$/;
const LINK_VAR = /^--(?:[a-z0-9]+-)*?(?:color-)?links?(?:-(?:color|colour))?$/;
const STATUS_VAR: [ColorRole, RegExp][] = [
  ['error', /error|danger|destructive|critical|invalid/],
  ['success', /success|positive|valid/],
  ['warning', /warn|caution|attention/],
];
/** Names of variants, not of the colour itself (`--bs-primary-bg-subtle`, `--link-hover-color`, …). */
const VARIANT =
  /hover|active|focus|visited|subtle|emphasis|light|dark|text|border|rgb|shadow|inverse|contrast|muted|disabled|foreground|fg|secondary/;

function varNamed(k: Cluster, re: RegExp): boolean {
  return k.vars.some((v) => {
    const name = v.toLowerCase();
    return re.test(name) && !VARIANT.test(name.replace(/^--[a-z0-9]+-/, '--'));
  });
}

function statusFromNames(k: Cluster): ColorRole | undefined {
  for (const [role, re] of STATUS_VAR) {
    if (
      k.vars.some((v) => re.test(v.toLowerCase()) && !/bg|background|subtle|border|emphasis|rgb/.test(v.toLowerCase()))
    )
      return role;
  }
  const { error, success, warning } = k.sem;
  const top = Math.max(error, success, warning);
  // A colour used mostly elsewhere (say, white text on a red alert) is not that state's colour.
  if (top === 0 || top * 2 < k.count) return undefined;
  return error === top ? 'error' : success === top ? 'success' : 'warning';
}

/** Evidence that a colour is the brand's, in the order of trust. */
function accentScore(k: Cluster): number {
  return k.buttons * 3 + k.bars * 2 + k.links;
}

export function assignRoles(clusters: readonly Cluster[]): ColorRole[] {
  const roles: ColorRole[] = clusters.map(() => 'neutral');
  const taken = new Set<number>();
  const best = (score: (k: Cluster, i: number) => number): number => {
    let at = -1;
    let top = 0;
    clusters.forEach((k, i) => {
      const s = taken.has(i) ? 0 : score(k, i);
      if (s > top) [at, top] = [i, s];
    });
    return at;
  };
  const assign = (i: number, role: ColorRole): void => {
    if (i < 0) return;
    roles[i] = role;
    taken.add(i);
  };
  // Pages built without our collector's evidence (no grid, no copy) fall back to areas and text length.
  const anyCover = clusters.some((k) => k.cover > 0);
  assign(
    best((k) => (anyCover ? k.cover : k.bgArea)),
    'background',
  );
  // Body copy on the page background; copy on bands and callouts (a hero's tagline) only if there is no other.
  const bg = clusters[roles.indexOf('background')]?.color;
  const onBg = (k: Cluster): number =>
    bg ? k.copyOn.filter((c) => deltaE(c.bg, bg) <= SAME_BACKGROUND).reduce((n, c) => n + c.chars, 0) : 0;
  const anyOnBg = clusters.some((k) => onBg(k) > 0);
  const anyCopy = clusters.some((k) => k.copyLen > 0);
  assign(
    best((k) => (anyOnBg ? onBg(k) : anyCopy ? k.copyLen : k.textLen)),
    'text',
  );

  const chromatic = (k: Cluster): boolean => chromaHue(k.color).C >= CHROMATIC;
  const named = (k: Cluster): boolean => varNamed(k, PRIMARY_VAR);
  const linkNamed = (k: Cluster): boolean => varNamed(k, LINK_VAR);
  const status = clusters.map(statusFromNames);
  // A colour named primary/brand/accent wins; then one named as the link colour; then
  // chromatic evidence from controls, bands and links; a grey only when nothing else has any.
  let primary = best((k) => (named(k) ? 1 + accentScore(k) : 0));
  if (primary < 0) primary = best((k) => (linkNamed(k) ? 1 + accentScore(k) : 0));
  if (primary < 0) primary = best((k, i) => (chromatic(k) && !status[i] ? accentScore(k) : 0));
  if (primary < 0) primary = best((k, i) => (!status[i] ? accentScore(k) : 0));
  assign(primary, 'primary');
  clusters.forEach((_, i) => {
    const role = status[i];
    if (!taken.has(i) && role) roles[i] = role;
  });
  return roles;
}
