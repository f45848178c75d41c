import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/browser/chromium.js';
import { validateDtcg } from '../../lib/design/dtcg.js';
import { extractDesign, prepareDesignPage } from '../../lib/design/extract.js';
import { networkPolicy } from '../../lib/browser/network/guard.js';
import type { ColorsResult } from '../../lib/design/colors.js';
import type { FontEntry } from '../../lib/design/fonts.js';
import type { IconEntry } from '../../lib/design/icons.js';
import type { ImageEntry } from '../../lib/design/images.js';
import type { LogoResult } from '../../lib/design/logo.js';
import type { TokensResult } from '../../lib/design/tokens.js';
import { EXTRACTORS } from '../../lib/tasks/model.js';
import { FIXTURES_DIR, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import {
  GroundTruthSchema,
  scoreColors,
  scoreFonts,
  scoreIcons,
  scoreImages,
  scoreLogo,
  type GroundTruth,
  type Score,
} from './scoring.js';

/** Fixture pages live on loopback: the guard allows private addresses here (the guard has tests of its own). */
const LOCAL_NETWORK = networkPolicy(true);

/**
 * Runs all six extractors in real Chromium over the fixture corpus and holds them to the
 * quality bar against each site's ground truth. One browser for the file; one context per site.
 */
const DESIGN_DIR = join(FIXTURES_DIR, 'design');
const SITES = readdirSync(DESIGN_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name);
const BAR = 0.9;

interface Run {
  gt: GroundTruth;
  inPageMs: number;
  colors: ColorsResult;
  images: ImageEntry[];
  fonts: FontEntry[];
  icons: IconEntry[];
  tokens: TokensResult;
  logo: LogoResult;
  scores: Record<'colors' | 'images' | 'fonts' | 'icons' | 'logo', Score>;
}

let server: FixtureServer;
let browser: Browser;
const runs = new Map<string, Run>();

function noError<T>(v: unknown, key: string): T {
  expect(v, `${key} extractor`).not.toHaveProperty('error');
  return v as T;
}

beforeAll(async () => {
  let xorigin = '';
  // Fixture pages name the second origin with a placeholder: its port is only known now.
  server = await startFixtureServer({
    routes: [
      async (req, res) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (!/^\/design\/[\w-]+\/(index\.html)?$/.test(path)) return false;
        const html = await readFile(join(FIXTURES_DIR, path.endsWith('/') ? `${path}index.html` : path), 'utf8');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html.replaceAll('__XORIGIN__', xorigin));
        return true;
      },
    ],
  });
  xorigin = server.crossOriginUrl;
  browser = await launchBrowser();
  for (const site of SITES) {
    const gt = GroundTruthSchema.parse(JSON.parse(readFileSync(join(DESIGN_DIR, site, 'ground-truth.json'), 'utf8')));
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const url = `${server.url}/design/${site}/`;
    await prepareDesignPage(page, url, { timeoutMs: 15_000 });
    const { results, inPageMs } = await extractDesign(page, {
      url,
      extractors: [...EXTRACTORS],
      assetPrefix: `biz/${site}/`,
      network: LOCAL_NETWORK,
    });
    await context.close();
    const colors = noError<ColorsResult>(results.colors, 'colors');
    const run: Omit<Run, 'scores'> = {
      gt,
      inPageMs,
      colors,
      images: noError<{ images: ImageEntry[] }>(results.images, 'images').images,
      fonts: noError<{ fonts: FontEntry[] }>(results.fonts, 'fonts').fonts,
      icons: noError<{ icons: IconEntry[] }>(results.icons, 'icons').icons,
      tokens: noError<{ tokens: TokensResult }>(results.tokens, 'tokens').tokens,
      logo: noError<{ logo: LogoResult }>(results.logo, 'logo').logo,
    };
    runs.set(site, {
      ...run,
      scores: {
        colors: scoreColors(colors.colors, colors.contrastIssues, gt),
        images: scoreImages(run.images, gt),
        fonts: scoreFonts(run.fonts, gt),
        icons: scoreIcons(run.icons, gt),
        logo: scoreLogo(run.logo, gt),
      },
    });
  }
}, 90_000);

afterAll(async () => {
  const f = (x: number): string => x.toFixed(2);
  const rows = [...runs.entries()].map(([site, r]) => ({
    site,
    ms: r.inPageMs,
    ...Object.fromEntries(Object.entries(r.scores).map(([k, s]) => [k, `P ${f(s.precision)} R ${f(s.recall)}`])),
  }));
  console.table(rows);
  for (const [site, r] of runs) {
    const problems = Object.entries(r.scores).flatMap(([k, s]) => s.problems.map((p) => `${k}: ${p}`));
    if (problems.length) console.log(`${site}:\n  ${problems.join('\n  ')}`);
  }
  await browser?.close();
  await server?.close();
});

describe.each(SITES)('design quality: %s', (site) => {
  const run = (): Run => {
    const r = runs.get(site);
    if (!r) throw new Error(`no run for ${site}`);
    return r;
  };

  it('colors: precision and recall >= 0.9 within ΔE, roles of primary/background/text right', () => {
    const { scores, colors } = run();
    expect(scores.colors.precision, scores.colors.problems.join('; ')).toBeGreaterThanOrEqual(BAR);
    expect(scores.colors.recall, scores.colors.problems.join('; ')).toBeGreaterThanOrEqual(BAR);
    expect(scores.colors.problems.filter((p) => p.startsWith('role') || p.includes('contrast'))).toEqual([]);
    for (const c of colors.colors) {
      expect(c.hex).toMatch(/^#[0-9A-F]{6}$/);
      expect(c.rgb).toMatch(/^rgb\(\d{1,3},\d{1,3},\d{1,3}\)$/);
    }
  });

  it('logo: right', () => {
    expect(run().scores.logo.problems).toEqual([]);
  });

  it('fonts: families, weights and sources exact', () => {
    const { scores, fonts, gt } = run();
    expect(scores.fonts.problems).toEqual([]);
    for (const want of gt.fonts.filter((w) => w.crossOrigin)) {
      const got = fonts.find((x) => x.family === want.family);
      expect(got?.faceUrl?.startsWith(server.crossOriginUrl)).toBe(true);
    }
  });

  it('images and icons: precision and recall >= 0.9', () => {
    const { scores } = run();
    for (const k of ['images', 'icons'] as const) {
      expect(scores[k].precision, `${k}: ${scores[k].problems.join('; ')}`).toBeGreaterThanOrEqual(BAR);
      expect(scores[k].recall, `${k}: ${scores[k].problems.join('; ')}`).toBeGreaterThanOrEqual(BAR);
    }
  });

  it('tokens: valid DTCG 2025.10 and the expected scales', () => {
    const { tokens, gt } = run();
    expect(validateDtcg(tokens.dtcg)).toEqual([]);
    const want = gt.tokens;
    if (!want) return;
    expect(tokens.motionDurationsMs).toEqual(want.motionDurationsMs);
    expect(tokens.radii.map((r) => r.value)).toEqual(expect.arrayContaining(want.radiiInclude));
    expect(tokens.spacing.map((s) => s.value)).toEqual(expect.arrayContaining(want.spacingInclude));
    expect(tokens.shadows).toHaveLength(want.shadowCount);
    expect(tokens.gradients).toHaveLength(want.gradientCount);
    expect(tokens.cssVariables.map((v) => v.name)).toEqual(expect.arrayContaining(want.cssVariablesInclude));
    for (const path of want.dtcgPaths) {
      const node = path
        .split('.')
        .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], tokens.dtcg);
      expect(node, path).toHaveProperty('$value');
    }
  });
});
