import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLauncher } from '../../lib/browser/chromium.js';
import { withGuardedSession } from '../../lib/browser/guarded-session.js';
import { networkPolicy, type Resolver } from '../../lib/browser/network/guard.js';
import type { AssetStore, StoredAsset } from '../../lib/design/asset-store.js';
import { extractDesign, prepareDesignPage, type ExtractorRun } from '../../lib/design/extract.js';
import type { FontEntry } from '../../lib/design/fonts.js';
import type { ImageEntry } from '../../lib/design/images.js';
import type { LogoResult } from '../../lib/design/logo.js';
import { FIXTURES_DIR } from '../support/fixture-server.js';

/**
 * A hostile page against the design extractors with the guard on: every asset, font and
 * stylesheet it names leads (directly or by redirect) to a loopback canary, or is too big,
 * or lies about its type. `site.example` and `cdn.example` resolve to public addresses
 * the policy dials on loopback; the canary is 127.0.0.1 itself and must see nothing.
 */
const SITE_IP = '93.184.216.34';
const CDN_IP = '93.184.216.36';
const PNG = readFileSync(join(FIXTURES_DIR, 'design/acme/images/acme-logo.png'));
const HUGE_BYTES = 12 * 1024 * 1024;

let site: Server;
let canary: Server;
const canaryHits: string[] = [];
const launcher = new BrowserLauncher();
const portOf = (s: Server): number => (s.address() as AddressInfo).port;

function page(): string {
  const cdn = `http://cdn.example:${portOf(site)}`;
  const bigSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><!-- ${'padding '.repeat(5_000)} --><rect width="40" height="40" fill="#c33"/></svg>`;
  const bigDataUri = `data:image/svg+xml;base64,${Buffer.from(bigSvg).toString('base64')}`;
  return `<!doctype html><html><head><title>Hostile Assets</title>
<link rel="stylesheet" href="${cdn}/sheet.css">
<style>@font-face { font-family: "Trap"; src: url("/to-canary.woff2") format("woff2"); } body { font-family: "Trap", serif; }</style>
</head><body>
<header><a href="/"><img src="/logo-is-html.png" alt="Hostile Assets" width="160" height="48"></a></header>
<p>Body copy of the hostile page.</p>
<img src="/to-canary.png" width="100" height="100" alt="redirected">
<img src="/huge.png" width="100" height="100" alt="huge">
<img src="${bigDataUri}" width="40" height="40" alt="inline">
<svg width="200" height="120" viewBox="0 0 200 120"><script>alert(1)</script><rect width="200" height="120" fill="#0a7"/></svg>
</body></html>`;
}

beforeAll(async () => {
  canary = createServer((req, res) => {
    canaryHits.push(req.url ?? '');
    res.writeHead(200).end('canary');
  });
  await new Promise<void>((r) => canary.listen(0, '127.0.0.1', () => r()));
  const toCanary = (path: string) => `http://127.0.0.1:${portOf(canary)}${path}`;
  site = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(page());
    else if (path === '/sheet.css') res.writeHead(302, { location: toCanary('/sheet.css') }).end();
    else if (path.startsWith('/to-canary')) res.writeHead(302, { location: toCanary(path) }).end();
    else if (path === '/logo-is-html.png')
      res.writeHead(200, { 'content-type': 'image/png' }).end('<html><script>steal()</script></html>');
    else if (path === '/huge.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG);
      const chunk = Buffer.alloc(64 * 1024, 7);
      let sent = PNG.length;
      const pump = () => {
        while (sent < HUGE_BYTES && res.write(chunk)) sent += chunk.length;
        if (sent >= HUGE_BYTES) res.end();
        else res.once('drain', pump);
      };
      pump();
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
});

afterAll(async () => {
  await launcher.close();
  await Promise.all([site, canary].map((s) => new Promise<void>((r) => s.close(() => r()))));
});

describe('design extraction of a hostile page, guard on', () => {
  it('reaches no private address, caps downloads and inline fields, and stores only safe types', async () => {
    const resolve: Resolver = async (host) =>
      host === 'site.example' ? [SITE_IP] : host === 'cdn.example' ? [CDN_IP] : ['127.0.0.1'];
    const network = networkPolicy(false, resolve, {
      dial: (a, p) => ({ address: [SITE_IP, CDN_IP].includes(a) ? '127.0.0.1' : a, port: p }),
    });
    const stored: StoredAsset[] = [];
    const store: AssetStore = {
      put: async (asset) => {
        stored.push(asset);
        return { s3Key: asset.key, downloadUrl: `https://assets.example/${asset.key}` };
      },
    };
    const failures: string[] = [];
    const url = `http://site.example:${portOf(site)}/`;
    const out = await withGuardedSession(
      launcher,
      { network, signal: new AbortController().signal, tenant: 'hostile' },
      async ({ session }) => {
        await prepareDesignPage(session.page, url, { timeoutMs: 20_000 });
        return extractDesign(session.page, {
          url,
          extractors: ['images', 'fonts', 'logo', 'icons'],
          assets: store,
          assetPrefix: 'assets/b/t/',
          network,
          onAssetFailure: (f) => failures.push(`${f.stage} ${f.asset}: ${f.error}`),
        });
      },
    );

    expect(canaryHits).toEqual([]);
    // The huge image is skipped with a note; the redirected ones are refused.
    expect(failures.some((f) => /huge\.png: The response of .* exceeds 5242880 bytes/.test(f))).toBe(true);
    expect(failures.some((f) => /stylesheet:.*sheet\.css: Refused to load http:\/\/127\.0\.0\.1/.test(f))).toBe(true);
    expect(failures.some((f) => /fonts:.*to-canary\.woff2: Refused to load http:\/\/127\.0\.0\.1/.test(f))).toBe(true);
    const images = (out.results.images as { images: (ImageEntry & { truncated?: string[] })[] }).images;
    expect(images.find((i) => i.src.endsWith('/huge.png'))?.s3Key).toBeUndefined();
    // A megabyte-scale data URI is cut in the result and kept downloadable.
    const inline = images.find((i) => i.src.startsWith('data:'));
    expect(inline?.src).toBe('data:image/svg+xml;base64,');
    expect(inline?.truncated).toContain('src');
    // Stored types come from the bytes: the "PNG" that is HTML and the scripted SVG are download-only.
    const html = stored.find((s) => s.body.toString().includes('steal()'));
    expect(html).toMatchObject({ contentType: 'application/octet-stream', disposition: 'attachment' });
    const svg = stored.find((s) => s.contentType === 'image/svg+xml');
    expect(svg?.disposition).toBe('attachment');
    for (const s of stored.filter((x) => !x.disposition))
      expect(s.contentType).toMatch(/^(image\/(png|jpeg|gif|webp|avif|x-icon)|font\/)/);
    // The font's face (a redirect to the canary) is declared but not downloaded.
    const fonts = (out.results.fonts as { fonts: FontEntry[] }).fonts;
    expect(fonts.find((f) => f.family === 'Trap')?.downloadUrl).toBeUndefined();
    expect((out.results.logo as { logo: LogoResult }).logo.found).toBe(true);
    expect(out.runs.map((r: ExtractorRun) => r.name)).toEqual(['images', 'fonts', 'logo', 'icons']);
  });
});
