import { createHash } from 'node:crypto';
import type { FetchedResponse } from '../browser/network/fetch.js';
import { describeError, ResponseTooLargeError } from '../errors.js';
import type { AssetStore } from './asset-store.js';
import { storedType } from './asset-type.js';

/** An asset that could not be downloaded from the page or stored: the result keeps it without a link. */
export type AssetFailureListener = (failure: { stage: 'download' | 'store'; asset: string; error: string }) => void;

/**
 * An HTTP GET under the network guard (lib/browser/network/fetch.ts): every redirect hop
 * judged, the connection pinned to the judged address, a deadline and a streamed size cap.
 */
export type GuardedGet = (url: string, opts: { timeoutMs: number; maxBytes: number }) => Promise<FetchedResponse>;

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
/** Stylesheets read from the network (cross-origin ones the page cannot show us). */
export const MAX_STYLESHEET_BYTES = 2 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

function decodeDataUri(uri: string): Uint8Array | undefined {
  const comma = uri.indexOf(',');
  if (!uri.startsWith('data:') || comma < 0) return undefined;
  const params = uri.slice(5, comma);
  const data = uri.slice(comma + 1);
  try {
    return params.split(';').includes('base64')
      ? Buffer.from(data, 'base64')
      : Buffer.from(decodeURIComponent(data), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Downloads and stores the assets of one task. Downloads go through the guarded GET,
 * never through the page's own request client (which follows redirects unjudged) and
 * never unbounded; stored objects get a type from their bytes (asset-type.ts).
 */
export class AssetUploader {
  private readonly done = new Map<string, Promise<UploadedAsset | undefined>>();
  private uploaded = 0;

  constructor(
    private readonly store: AssetStore | undefined,
    private readonly prefix: string,
    private readonly get: GuardedGet,
    private readonly onFailure: AssetFailureListener = () => undefined,
  ) {}

  /** Uploads the resource at `src` (http(s) or data: URI); undefined when skipped or failed. */
  fromUrl(kind: string, src: string): Promise<UploadedAsset | undefined> {
    return this.once(`${kind}:${src}`, kind, async () => {
      if (src.startsWith('data:')) return decodeDataUri(src);
      if (!/^https?:/i.test(src)) return undefined;
      const res = await this.get(src, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_ASSET_BYTES });
      return res.status >= 200 && res.status < 300 ? res.body : undefined;
    });
  }

  /** Uploads markup produced in the page (inline SVG). */
  fromText(kind: string, text: string): Promise<UploadedAsset | undefined> {
    return this.once(`${kind}:text:${sha(text)}`, kind, async () => Buffer.from(text, 'utf8'));
  }

  /** A stylesheet's text, under the same guard and a cap; undefined when refused, missing or too large. */
  async stylesheet(url: string): Promise<{ css: string; base: string } | undefined> {
    try {
      const res = await this.get(url, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_STYLESHEET_BYTES });
      return res.status >= 200 && res.status < 300 ? { css: res.body.toString('utf8'), base: res.url } : undefined;
    } catch (err) {
      this.onFailure({ stage: 'download', asset: `stylesheet:${url}`, error: describeError(err) });
      return undefined;
    }
  }

  private once(
    id: string,
    kind: string,
    load: () => Promise<Uint8Array | undefined>,
  ): Promise<UploadedAsset | undefined> {
    const store = this.store;
    if (!store) return Promise.resolve(undefined);
    let p = this.done.get(id);
    if (!p) {
      p = (async () => {
        if (this.uploaded >= MAX_ASSETS_PER_TASK) return undefined;
        const body = await load().catch((err: unknown) => {
          // Too large is a skip with a note, not a failure of the page's asset.
          this.onFailure({
            stage: 'download',
            asset: id,
            error: err instanceof ResponseTooLargeError ? err.message : describeError(err),
          });
          return undefined;
        });
        if (!body || body.byteLength === 0 || body.byteLength > MAX_ASSET_BYTES) return undefined;
        if (this.uploaded >= MAX_ASSETS_PER_TASK) return undefined;
        this.uploaded += 1;
        const type = storedType(body);
        const key = `${this.prefix}${kind}/${sha(body).slice(0, 20)}${type.extension}`;
        return store
          .put({
            key,
            body,
            contentType: type.contentType,
            ...(type.disposition ? { disposition: type.disposition } : {}),
          })
          .catch((err: unknown) => {
            this.onFailure({
              stage: 'store',
              asset: id,
              error: describeError(err instanceof Error && err.cause ? err.cause : err),
            });
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
