import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { describeError, NetworkRefusedError, ResponseTooLargeError } from '../../errors.js';
import { checkUrl, dialTarget, type NetworkPolicy } from './guard.js';

export interface GuardedFetchOptions {
  /** The whole exchange, redirects included, must finish within this. */
  timeoutMs: number;
  /** Decoded body bytes beyond this abort the download (ResponseTooLargeError). */
  maxBytes: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface FetchedResponse {
  status: number;
  /** The final URL after redirects. */
  url: string;
  contentType: string;
  headers: Record<string, string>;
  body: Buffer;
}

const USER_AGENT = 'browser-task-service/0.1 (+https://github.com/browser-task-service)';

/** Connects to the address the guard approved, never to a second DNS answer. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return (_host, options, callback) => {
    if (options.all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function decoded(res: IncomingMessage): Readable {
  switch ((res.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
      return res.pipe(createGunzip());
    case 'deflate':
      return res.pipe(createInflate());
    case 'br':
      return res.pipe(createBrotliDecompress());
    default:
      return res;
  }
}

/** Reads at most `maxBytes` decoded bytes; more is an error, so a compressed bomb stops early. */
async function readCapped(res: IncomingMessage, url: string, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length'] ?? Number.NaN);
  if (!res.headers['content-encoding'] && declared > maxBytes) {
    res.destroy();
    throw new ResponseTooLargeError(url, maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = decoded(res);
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      res.destroy();
      stream.destroy();
      throw new ResponseTooLargeError(url, maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(
  url: URL,
  target: { address: string; port: number },
  headers: Record<string, string>,
  signal: AbortSignal,
  extraCa?: string,
): Promise<IncomingMessage> {
  const options: RequestOptions & { servername?: string; ca?: string[] } = {
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: target.port,
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    headers: { host: url.host, 'user-agent': USER_AGENT, 'accept-encoding': 'gzip, deflate, br', ...headers },
    lookup: pinnedLookup(target.address),
    signal,
  };
  if (url.protocol === 'https:' && !isIP(options.hostname ?? '')) options.servername = options.hostname ?? undefined;
  if (url.protocol === 'https:' && extraCa) options.ca = [...rootCertificates, extraCa];
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, resolve);
    req.on('error', reject);
    req.end();
  });
}

/**
 * An HTTP GET from Node under the network guard, for everything the service fetches
 * outside a browser page (stylesheets, fonts and images of a design extraction, lookup
 * recipes): every hop of a redirect chain is judged before it is sent and connects to
 * the approved address, the whole exchange has a deadline, and the body a size cap.
 */
export async function guardedFetch(
  policy: NetworkPolicy,
  url: string,
  opts: GuardedFetchOptions,
): Promise<FetchedResponse> {
  const signal = opts.signal
    ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)])
    : AbortSignal.timeout(opts.timeoutMs);
  const maxRedirects = opts.maxRedirects ?? 5;
  let current = url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const verdict = await checkUrl(policy, current);
    if (!verdict.allowed) throw new NetworkRefusedError(verdict.reason);
    const target = new URL(current);
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new NetworkRefusedError(`Refused to fetch ${current}: only http and https URLs are allowed`);
    const address = verdict.addresses[0];
    if (!address) throw new NetworkRefusedError(`Refused to fetch ${current}: no address to connect to`);
    let res: IncomingMessage;
    try {
      const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
      res = await send(target, dialTarget(policy, address, port), opts.headers ?? {}, signal, policy.extraCa);
    } catch (err) {
      if (signal.aborted && !opts.signal?.aborted)
        throw new Error(`Fetching ${url} took longer than ${opts.timeoutMs} ms`, { cause: err });
      throw new Error(`Could not fetch ${current}: ${describeError(err)}`, { cause: err });
    }
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      res.resume();
      current = new URL(location, current).href;
      continue;
    }
    const headers = Object.fromEntries(
      Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    );
    const body = await readCapped(res, current, opts.maxBytes);
    return { status, url: current, contentType: headers['content-type'] ?? '', headers, body };
  }
  throw new Error(`Fetching ${url} followed more than ${maxRedirects} redirects`);
}

/** What a lookup recipe receives: the response with its body as text. */
export interface FetchedText {
  status: number;
  url: string;
  contentType: string;
  body: string;
}

/**
 * guardedFetch as a text GET for lookup recipes (JSON and text APIs). `onFetched` hears
 * every URL that answered, for a task's `visitedUrls`; refused ones never reach it.
 * `signal` (a task's budget or cancellation) aborts a call in flight.
 */
export function guardedTextGet(
  policy: NetworkPolicy,
  hooks: { onFetched?: (url: string) => void; signal?: AbortSignal } = {},
): (url: string, opts: { timeoutMs: number; maxBytes: number }) => Promise<FetchedText> {
  return async (url, opts) => {
    const res = await guardedFetch(policy, url, {
      ...opts,
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      headers: { accept: 'application/json, text/plain;q=0.9, */*;q=0.5' },
    });
    hooks.onFetched?.(res.url);
    return { status: res.status, url: res.url, contentType: res.contentType, body: res.body.toString('utf8') };
  };
}
