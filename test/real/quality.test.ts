import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/browser/chromium.js';
import type { ColorsResult } from '../../lib/design/colors.js';
import { extractDesign, prepareDesignPage } from '../../lib/design/extract.js';
import { networkPolicy } from '../../lib/browser/network/guard.js';
import type { FontEntry } from '../../lib/design/fonts.js';
import type { LogoResult } from '../../lib/design/logo.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { CACHE_DIR, OWN_PAGES_DIR, loadGroundTruth, loadManifest, type PageTruth } from './corpus.js';
import { BARS, FACTS, formatTable, scorePage, totals, type PageScore } from './scoring.js';

/** Fixture pages live on loopback: the guard allows private addresses here (the guard has tests of its own). */
const LOCAL_NETWORK = networkPolicy(true);

/**
 * Our extractors over the real-site corpus (pages nobody here wrote, fetched by
 * `npm run corpus:real`), held to issue 9's bar on the facts a designer checks first.
 * This project is only configured when the cache is present (vitest.config.ts).
 */
const manifest = loadManifest();
const truth = loadGroundTruth();
const rows: { id: string; gt: PageTruth; score: PageScore }[] = [];
let server: FixtureServer;
let browser: Browser;

beforeAll(async () => {
  server = await startFixtureServer({ root: CACHE_DIR, chroot: true, mounts: { '/own/': OWN_PAGES_DIR } });
  browser = await launchBrowser();
  for (const p of manifest.pages) {
    const gt = truth[p.id];
    if (!gt) throw new Error(`no ground truth for ${p.id} in test/real/ground-truth.json`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const url = `${server.url}${p.path}`;
    await prepareDesignPage(page, url, { timeoutMs: 15_000 });
    const { results } = await extractDesign(page, {
      url,
      extractors: ['colors', 'fonts', 'logo'],
      assetPrefix: `real/${p.id}/`,
      network: LOCAL_NETWORK,
    });
    await context.close();
    for (const k of ['colors', 'fonts', 'logo'] as const)
      expect(results[k], `${p.id}: ${k}`).not.toHaveProperty('error');
    const colors = results.colors as ColorsResult;
    const fonts = (results.fonts as { fonts: FontEntry[] }).fonts;
    const logo = (results.logo as { logo: LogoResult }).logo;
    rows.push({ id: p.id, gt, score: scorePage({ colors: colors.colors, fonts, logo }, gt) });
  }
}, 300_000);

afterAll(async () => {
  if (rows.length) console.log(formatTable(rows));
  await browser?.close();
  await server?.close();
});

describe('real-site corpus', () => {
  it('covers every page of the manifest', () => {
    expect(rows.map((r) => r.id)).toEqual(manifest.pages.map((p) => p.id));
  });

  it.each(FACTS.filter((f) => BARS[f] !== undefined))('%s is right on enough pages', (fact) => {
    const misses = rows.filter((r) => !r.score.ok[fact]).map((r) => `${r.id}: got ${r.score.got[fact]}`);
    expect(totals(rows.map((r) => r.score))[fact], misses.join('; ')).toBeGreaterThanOrEqual(BARS[fact]!);
  });
});
