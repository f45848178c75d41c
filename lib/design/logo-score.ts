/**
 * Logo scoring, pure: each candidate found in the page carries layout and naming
 * features, and the highest score above a floor wins. Partner-logo walls, cookie banners,
 * controls (a theme toggle's icon, a menu button), invisible and tiny marks are rejected
 * outright, whatever else they have going for them.
 */
export interface LogoCandidate {
  kind: 'img' | 'svg' | 'background';
  src: string;
  svgSource?: string;
  alt: string;
  width: number;
  height: number;
  naturalWidth: number;
  naturalHeight: number;
  /** Document coordinates of the box's top-left corner. */
  top: number;
  left: number;
  visible: boolean;
  inHeader: boolean;
  inFooter: boolean;
  linksHome: boolean;
  /** Lowercased class, id, alt, aria-label and file name of the element and its close ancestors. */
  hint: string;
  sameDomain: boolean;
  mentionsSiteName: boolean;
  inCookieBanner: boolean;
  inPartnerWall: boolean;
  /** Inside a control (button, toggle, menu, search, theme switch): never a logo. */
  inControl: boolean;
  /** Right beside a link to the home page (the mark before a site title in a top bar). */
  besideHome: boolean;
  viewportArea: number;
}

export const LOGO_MIN_SCORE = 4;

export function scoreLogo(c: LogoCandidate): number {
  if (!c.visible || c.inCookieBanner || c.inPartnerWall || c.inControl) return -Infinity;
  if (c.width < 16 || c.height < 10) return -Infinity;
  if (c.width * c.height > 0.25 * c.viewportArea) return -Infinity;
  let s = 0;
  // A "navbar" sidebar runs the page's full height: header credit only near the top.
  if (c.inHeader && c.top < 400) s += 3;
  if (c.top < 200) s += 2;
  else if (c.top > 1200) s -= 1;
  if (c.linksHome) s += 3;
  else if (c.besideHome) s += 2;
  if (/logo/.test(c.hint)) s += 4;
  else if (/brand|wordmark|site-?name|masthead/.test(c.hint)) s += 2;
  if (c.mentionsSiteName) s += 2;
  if (c.sameDomain) s += 1;
  if (c.width >= 40 && c.width <= 400 && c.height >= 16 && c.height <= 160) s += 1;
  if (c.inFooter) s -= 3;
  return s;
}

export function pickLogo(cands: LogoCandidate[]): LogoCandidate | undefined {
  let best: LogoCandidate | undefined;
  let bestScore = LOGO_MIN_SCORE - 1e-9;
  for (const c of cands) {
    const s = scoreLogo(c);
    // Ties go to the earlier candidate in reading order (top, then left).
    if (
      s > bestScore ||
      (best && s === bestScore && (c.top < best.top || (c.top === best.top && c.left < best.left)))
    ) {
      best = c;
      bestScore = s;
    }
  }
  return best;
}
