import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3AssetStore } from '../../lib/design/s3-asset-store.js';
import { launchBrowser } from '../../lib/browser/chromium.js';
import { MAX_ASSETS_PER_TASK } from '../../lib/design/assets.js';
import { extractDesign, prepareDesignPage } from '../../lib/design/extract.js';
import { networkPolicy } from '../../lib/browser/network/guard.js';
import type { FontEntry } from '../../lib/design/fonts.js';
import type { IconEntry } from '../../lib/design/icons.js';
import type { ImageEntry } from '../../lib/design/images.js';
import type { LogoResult } from '../../lib/design/logo.js';
import { useTestAws, type TestAws } from '../support/aws.js';
import { FIXTURES_DIR, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

/** Fixture pages live on loopback: the guard allows private addresses here (the guard has tests of its own). */
const LOCAL_NETWORK = networkPolicy(true);

/** Asset upload into the embedded S3 emulator, the per-task cap, and per-extractor isolation. */
let emulators: TestAws;
let server: FixtureServer;
let browser: Browser;
let store: S3AssetStore;

beforeAll(async () => {
  emulators = await useTestAws();
  store = new S3AssetStore(emulators.clients.s3, emulators.config.ASSETS_BUCKET, emulators.config.BTS_ASSET_URL_TTL_S);
  server = await startFixtureServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await emulators?.stop();
});

async function withPage<T>(fn: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    return await fn(await context.newPage());
  } finally {
    await context.close();
  }
}

const download = async (url: string | undefined): Promise<Buffer> => {
  expect(url).toBeTruthy();
  const res = await fetch(url!);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};

describe('design assets in S3', () => {
  it('uploads images, fonts and the logo under the task prefix; downloadUrl returns the bytes', async () => {
    const url = `${server.url}/design/acme/`;
    const { results } = await withPage(async (page) => {
      await prepareDesignPage(page, url, { timeoutMs: 15_000 });
      return extractDesign(page, {
        url,
        extractors: ['images', 'fonts', 'logo'],
        assets: store,
        assetPrefix: 'biz-1/task-1/',
        network: LOCAL_NETWORK,
      });
    });
    const images = (results.images as { images: ImageEntry[] }).images;
    const hero = images.find((i) => i.src.endsWith('/images/hero.png'));
    expect(hero?.s3Key).toMatch(/^biz-1\/task-1\/images\/[0-9a-f]{20}\.png$/);
    expect(hero?.originalSrc).toBe(hero?.src);
    expect(await download(hero?.downloadUrl)).toEqual(
      await readFile(join(FIXTURES_DIR, 'design/acme/images/hero.png')),
    );
    const dataUri = images.find((i) => i.src.startsWith('data:'));
    expect((await download(dataUri?.downloadUrl)).subarray(1, 4).toString()).toBe('PNG');

    const serif = (results.fonts as { fonts: FontEntry[] }).fonts.find((f) => f.family === 'Source Serif 4');
    expect(serif?.originalFaceUrl).toMatch(/source-serif-4-regular\.woff2$/);
    expect(serif?.s3Key).toMatch(/^biz-1\/task-1\/fonts\/.*\.woff2$/);
    expect(await download(serif?.downloadUrl)).toEqual(
      await readFile(join(FIXTURES_DIR, 'design/_fonts/source-serif-4-regular.woff2')),
    );

    const logo = (results.logo as { logo: LogoResult }).logo;
    expect(logo.s3Key?.startsWith('biz-1/task-1/logo/')).toBe(true);
    expect(await download(logo.downloadUrl)).toEqual(
      await readFile(join(FIXTURES_DIR, 'design/acme/images/acme-logo.png')),
    );
  });

  it('uploads icon and inline-logo SVG markup', async () => {
    const url = `${server.url}/design/nightowl/`;
    const { results } = await withPage(async (page) => {
      await prepareDesignPage(page, url, { timeoutMs: 15_000 });
      return extractDesign(page, {
        url,
        extractors: ['icons', 'logo'],
        assets: store,
        assetPrefix: 'biz-1/task-2/',
        network: LOCAL_NETWORK,
      });
    });
    const icons = (results.icons as { icons: IconEntry[] }).icons;
    expect(icons.length).toBeGreaterThan(0);
    for (const icon of icons) {
      expect(icon.signedUrl).toBe(icon.downloadUrl);
      expect((await download(icon.downloadUrl)).toString('utf8')).toBe(icon.source);
    }
    const logo = (results.logo as { logo: LogoResult }).logo;
    expect((await download(logo.downloadUrl)).toString('utf8')).toBe(logo.svgSource);
  });

  it(`stops uploading after ${MAX_ASSETS_PER_TASK} assets but still reports every image`, async () => {
    const count = MAX_ASSETS_PER_TASK + 10;
    const svg = (i: number): string =>
      `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="${100 + i}" height="60"><rect width="10" height="10" fill="#${(i * 40503).toString(16).padStart(6, '0').slice(-6)}"/></svg>`)}`;
    const { results } = await withPage(async (page) => {
      await page.setContent(Array.from({ length: count }, (_, i) => `<img src="${svg(i)}" alt="">`).join(''));
      return extractDesign(page, {
        url: 'about:blank',
        extractors: ['images'],
        assets: store,
        assetPrefix: 'biz-1/task-3/',
        network: LOCAL_NETWORK,
      });
    });
    const images = (results.images as { images: ImageEntry[] }).images;
    expect(images).toHaveLength(count);
    expect(images.filter((i) => i.s3Key)).toHaveLength(MAX_ASSETS_PER_TASK);
  });
});

describe('extractor isolation', () => {
  it('a failing extractor reports { error } under its key while the others succeed', async () => {
    const url = `${server.url}/design/_hostile/`;
    const { results } = await withPage(async (page) => {
      await prepareDesignPage(page, url, { timeoutMs: 15_000 });
      return extractDesign(page, {
        url,
        extractors: ['fonts', 'colors', 'logo'],
        assetPrefix: 'x/',
        network: LOCAL_NETWORK,
      });
    });
    expect(results.fonts).toEqual({ error: expect.stringContaining('document.fonts is blocked here') });
    expect(results.colors).toHaveProperty('colors');
    expect((results.logo as { logo: LogoResult }).logo).toMatchObject({ found: true, type: 'img' });
  });
});
