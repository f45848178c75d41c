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
 * address (injected resolver) that the egress proxy then dials on loopback (the policy's
 * `dial` seam), so pages on it load, while `127.0.0.1` stays loopback: that separates what
 * the guard allows from what it refuses on one machine.
 */
let site: FixtureServer;
const launcher = new BrowserLauncher();
let port = '';
const hits: string[] = [];
const PUBLIC = '93.184.216.34';
const resolve: Resolver = async (host) => (host === 'localhost' ? [PUBLIC] : ['127.0.0.1']);
const dial = (address: string, port: number) => ({ address: address === PUBLIC ? '127.0.0.1' : address, port });

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

const run = <T>(
  allowPrivateNetwork: boolean,
  fn: (b: { page: Page; guard: NetworkGuard; context: BrowserContext }) => Promise<T>,
) =>
  withGuardedSession(
    launcher,
    {
      network: networkPolicy(allowPrivateNetwork, resolve, { dial }),
      signal: new AbortController().signal,
      tenant: 'guard-test',
    },
    ({ session, guard }) => fn({ page: session.page, guard, context: session.context }),
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
      const err = await page.goto(`http://127.0.0.1:${port}/worker/site/`).then(
        () => undefined,
        (e: Error) => e.message,
      );
      return { err, refusal: guard.refusal };
    });
    expect(out.err).toContain('ERR_BLOCKED_BY_CLIENT');
    expect(out.refusal).toBe(
      `Refused to load http://127.0.0.1:${port}/worker/site/: private network addresses are not allowed (127.0.0.1 is a loopback address)`,
    );
    expect(hits).toEqual([]);
  });

  it('stops a redirect into a private address before it connects, and flags it', async () => {
    hits.length = 0;
    const refusal = await run(false, async ({ page, guard }) => {
      await page.goto(`http://localhost:${port}/redirect-page`, { waitUntil: 'load' });
      await page.waitForTimeout(200);
      return guard.settled();
    });
    expect(refusal).toContain(`Refused to load http://127.0.0.1:${port}/worker/site/hero.png?after-redirect`);
    expect(hits).toContain('/hop');
    // The egress proxy judged the hop and never dialled it: the private target saw nothing.
    expect(hits.filter((h) => h.includes('after-redirect'))).toEqual([]);
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
        network: guard.policy,
      });
      return (results.images as { images: { originalSrc?: string; src: string; s3Key?: string }[] }).images;
    });
    const uploaded = images.filter((i) => i.s3Key).map((i) => i.originalSrc ?? i.src);
    expect(uploaded).toEqual([`http://localhost:${port}/worker/site/hero.png`]);
    expect(stored).toHaveLength(1);
    expect(hits).not.toContain('/secret-bg.png');
    // Neither the browser (through the egress proxy) nor the uploader (hop by hop) requests the target.
    expect(hits.filter((h) => h.includes('after-redirect'))).toEqual([]);
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
