import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { BrowserLauncher } from '../../lib/browser/chromium.js';
import { withGuardedSession } from '../../lib/browser/guarded-session.js';
import { networkPolicy, type NetworkGuard, type Resolver } from '../../lib/browser/network/guard.js';
import type { AssetStore } from '../../lib/design/asset-store.js';
import { extractDesign } from '../../lib/design/extract.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

/**
 * Real Chromium against loopback pages. `localhost` is resolved by the guard to a public
 * address (injected resolver), so pages on it load, while `127.0.0.1` stays loopback:
 * that separates what the guard allows from what it refuses on one machine.
 */
let site: FixtureServer;
const launcher = new BrowserLauncher();
let port = '';
const hits: string[] = [];
const resolve: Resolver = async (host) => (host === 'localhost' ? ['93.184.216.34'] : ['127.0.0.1']);

beforeAll(async () => {
  site = await startFixtureServer({
    routes: [
      (req, res) => {
        const path = req.url ?? '/';
        hits.push(path.includes('after-redirect') ? `${path} accept=${req.headers.accept ?? ''}` : path);
        if (path === '/page') {
          res.writeHead(200, { 'content-type': 'text/html' }).end(
            `<h1>guarded</h1>
             <img id="ok" src="http://localhost:${port}/worker/site/hero.png">
             <img id="direct" src="http://127.0.0.1:${port}/direct.png">
             <script>fetch('http://127.0.0.1:${port}/xhr').catch(() => {})</script>`,
          );
          return true;
        }
        if (path === '/assets-page') {
          res.writeHead(200, { 'content-type': 'text/html' }).end(
            `<h1>assets</h1>
             <img src="http://localhost:${port}/worker/site/hero.png">
             <div style="width:80px;height:80px;background-image:url(http://127.0.0.1:${port}/secret-bg.png)"></div>
             <div style="width:80px;height:80px;background-image:url(http://localhost:${port}/hop)"></div>`,
          );
          return true;
        }
        if (path === '/redirect-page') {
          res.writeHead(200, { 'content-type': 'text/html' }).end(`<img src="http://localhost:${port}/hop">`);
          return true;
        }
        if (path === '/hop') {
          res.writeHead(302, { location: `http://127.0.0.1:${port}/worker/site/hero.png?after-redirect` }).end();
          return true;
        }
        return false;
      },
    ],
  });
  port = new URL(site.url).port;
});

afterAll(async () => {
  await site?.close();
  await launcher.close();
});

const run = <T>(allowPrivateNetwork: boolean, fn: (b: { page: Page; guard: NetworkGuard; context: BrowserContext }) => Promise<T>) =>
  withGuardedSession(launcher, { network: networkPolicy(allowPrivateNetwork, resolve), signal: new AbortController().signal }, ({ session, guard }) =>
    fn({ page: session.page, guard, context: session.context }),
  );

describe('network guard in a real browser', () => {
  it('loads public subresources and blocks private ones before they leave the browser', async () => {
    hits.length = 0;
    const seen = await run(false, async ({ page, guard }) => {
      await page.goto(`http://localhost:${port}/page`, { waitUntil: 'load' });
      await page.waitForTimeout(200);
      const sizes = await page.evaluate(() =>
        ['ok', 'direct'].map((id) => (document.getElementById(id) as HTMLImageElement).naturalWidth),
      );
      return { sizes, refusal: guard.refusal };
    });
    expect(seen.sizes).toEqual([48, 0]);
    expect(hits).toContain('/page');
    expect(hits).toContain('/worker/site/hero.png');
    expect(hits).not.toContain('/direct.png');
    expect(hits).not.toContain('/xhr');
    // A refused subresource is not a refused page.
    expect(seen.refusal).toBeUndefined();
  });

  it('lets the same page reach private addresses when they are allowed', async () => {
    hits.length = 0;
    await run(true, async ({ page }) => {
      await page.goto(`http://localhost:${port}/page`, { waitUntil: 'load' });
      await page.waitForTimeout(200);
    });
    expect(hits).toContain('/direct.png');
  });

  it('refuses a top-level navigation to a private address with the guard sentence', async () => {
    hits.length = 0;
    const out = await run(false, async ({ page, guard }) => {
      const err = await page.goto(`http://127.0.0.1:${port}/worker/site/`).then(() => undefined, (e: Error) => e.message);
      return { err, refusal: guard.refusal };
    });
    expect(out.err).toContain('ERR_BLOCKED_BY_CLIENT');
    expect(out.refusal).toBe(
      `Refused to load http://127.0.0.1:${port}/worker/site/: private network addresses are not allowed (127.0.0.1 is a loopback address)`,
    );
    expect(hits).toEqual([]);
  });

  it('flags a redirect into a private address so the task cannot use what it fetched', async () => {
    const refusal = await run(false, async ({ page, guard }) => {
      await page.goto(`http://localhost:${port}/redirect-page`, { waitUntil: 'load' });
      await page.waitForTimeout(200);
      return guard.refusal;
    });
    expect(refusal).toContain(`Refused to load http://127.0.0.1:${port}/worker/site/hero.png?after-redirect`);
  });

  it('downloads assets only from allowed addresses, checking every redirect hop', async () => {
    hits.length = 0;
    const stored: string[] = [];
    const store: AssetStore = {
      put: async ({ key }) => {
        stored.push(key);
        return { s3Key: key, downloadUrl: `https://assets.example/${key}` };
      },
    };
    const images = await run(false, async ({ page, guard }) => {
      await page.goto(`http://localhost:${port}/assets-page`, { waitUntil: 'load' });
      const { results } = await extractDesign(page, {
        url: page.url(),
        extractors: ['images'],
        assets: store,
        assetPrefix: 'assets/b/t/',
        allowUrl: async (url) => (await guard.check(url)) === undefined,
      });
      return (results.images as { images: { originalSrc?: string; src: string; s3Key?: string }[] }).images;
    });
    const uploaded = images.filter((i) => i.s3Key).map((i) => i.originalSrc ?? i.src);
    expect(uploaded).toEqual([`http://localhost:${port}/worker/site/hero.png`]);
    expect(stored).toHaveLength(1);
    expect(hits).not.toContain('/secret-bg.png');
    // The browser's own image loads follow the redirect (a route cannot stop a hop; the guard
    // flags it instead), but the uploader, which checks each hop, never requests the target.
    const redirected = hits.filter((h) => h.includes('after-redirect'));
    expect(redirected.every((h) => h.includes('accept=image/'))).toBe(true);
  });

  it('closes its context even when the job throws', async () => {
    let contextRef: import('playwright-core').BrowserContext | undefined;
    await expect(
      run(true, async ({ context }) => {
        contextRef = context;
        throw new Error('job blew up');
      }),
    ).rejects.toThrow('job blew up');
    expect(contextRef?.pages()).toEqual([]);
    await expect(contextRef!.newPage()).rejects.toThrow();
  });
});
