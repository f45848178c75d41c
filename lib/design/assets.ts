import { createHash } from 'node:crypto';
import type { APIResponse, Page } from 'playwright-core';
import { describeError } from '../errors.js';
import type { AssetStore } from './asset-store.js';


/** An asset that could not be downloaded from the page or stored: the result keeps it without a link. */
export type AssetFailureListener = (failure: { stage: 'download' | 'store'; asset: string; error: string }) => void;

export interface UploadedAsset {
  s3Key: string;
  downloadUrl: string;
}

/**
 * Bounds what one extraction may push to storage: a page with thousands of images must
 * not turn a 5-second task into minutes of uploads or gigabytes of S3. Beyond these caps
 * assets are still reported, just without `s3Key`/`downloadUrl`.
 */
export const MAX_ASSETS_PER_TASK = 50;
export const MAX_ASSET_BYTES = 5 * 1024 * 1024;

const EXT: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/avif': '.avif',
  'image/svg+xml': '.svg',
  'image/x-icon': '.ico',
  'font/woff2': '.woff2',
  'font/woff': '.woff',
  'font/ttf': '.ttf',
  'font/otf': '.otf',
};

function decodeDataUri(uri: string): { body: Uint8Array; contentType: string } | undefined {
  const m = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(uri);
  if (!m) return undefined;
  const [, type = '', params = '', data = ''] = m;
  const body = params.includes(';base64') ? Buffer.from(data, 'base64') : Buffer.from(decodeURIComponent(data), 'utf8');
  return { body, contentType: type || 'text/plain' };
}

function guessType(url: string, header: string | undefined): string {
  const h = header?.split(';')[0]?.trim().toLowerCase();
  if (h && h !== 'application/octet-stream') return h;
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  const byExt: Record<string, string> = { woff2: 'font/woff2', woff: 'font/woff', ttf: 'font/ttf', otf: 'font/otf', svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
  return (ext && byExt[ext]) ?? 'application/octet-stream';
}

/**
 * Uploads assets for one task. Bytes come from the page's browser context (its cookies,
 * its network stack and any route guards installed on it), never from Node's fetch, so
 * the extraction cannot be used to reach addresses the page itself could not.
 */
export class AssetUploader {
  private readonly done = new Map<string, Promise<UploadedAsset | undefined>>();
  private uploaded = 0;

  constructor(
    private readonly page: Page,
    private readonly store: AssetStore | undefined,
    private readonly prefix: string,
    /** The caller's network policy (the worker's private-network guard), checked on every hop. */
    private readonly allowUrl: (url: string) => Promise<boolean> = async () => true,
    private readonly onFailure: AssetFailureListener = () => undefined,
  ) {}

  /** Uploads the resource at `src` (http(s) or data: URI); undefined when skipped or failed. */
  fromUrl(kind: string, src: string): Promise<UploadedAsset | undefined> {
    return this.once(`${kind}:${src}`, async () => {
      if (src.startsWith('data:')) return decodeDataUri(src);
      if (!/^https?:/i.test(src)) return undefined;
      const res = await this.fetchAllowed(src);
      if (!res?.ok()) return undefined;
      const length = Number(res.headers()['content-length'] ?? 0);
      if (length > MAX_ASSET_BYTES) return undefined;
      return { body: await res.body(), contentType: guessType(src, res.headers()['content-type']) };
    }, kind);
  }

  /**
   * The context's API client bypasses the browser's route guard, so redirects are followed
   * here, one hop at a time, and every URL is checked before a request is sent.
   */
  private async fetchAllowed(url: string, hops = 5): Promise<APIResponse | undefined> {
    let current = url;
    for (let i = 0; i <= hops; i++) {
      if (!(await this.allowUrl(current))) return undefined;
      const res = await this.page.context().request.get(current, { timeout: 10_000, maxRedirects: 0 });
      const location = res.status() >= 300 && res.status() < 400 ? res.headers().location : undefined;
      if (!location) return res;
      current = new URL(location, current).href;
    }
    return undefined;
  }

  /** Uploads markup produced in the page (inline SVG). */
  fromText(kind: string, text: string, contentType: string): Promise<UploadedAsset | undefined> {
    return this.once(`${kind}:text:${sha(text)}`, async () => ({ body: Buffer.from(text, 'utf8'), contentType }), kind);
  }

  private once(
    id: string,
    load: () => Promise<{ body: Uint8Array; contentType: string } | undefined>,
    kind: string,
  ): Promise<UploadedAsset | undefined> {
    const store = this.store;
    if (!store) return Promise.resolve(undefined);
    let p = this.done.get(id);
    if (!p) {
      p = (async () => {
        if (this.uploaded >= MAX_ASSETS_PER_TASK) return undefined;
        const got = await load().catch((err: unknown) => {
          this.onFailure({ stage: 'download', asset: id, error: describeError(err) });
          return undefined;
        });
        if (!got || got.body.byteLength === 0 || got.body.byteLength > MAX_ASSET_BYTES) return undefined;
        if (this.uploaded >= MAX_ASSETS_PER_TASK) return undefined;
        this.uploaded += 1;
        const key = `${this.prefix}${kind}/${sha(got.body).slice(0, 20)}${EXT[got.contentType] ?? ''}`;
        return store.put({ key, body: got.body, contentType: got.contentType }).catch((err: unknown) => {
          this.onFailure({ stage: 'store', asset: id, error: describeError(err instanceof Error && err.cause ? err.cause : err) });
          return undefined;
        });
      })();
      this.done.set(id, p);
    }
    return p;
  }
}

export function sha(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
