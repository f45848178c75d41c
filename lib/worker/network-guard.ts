import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { BrowserContext, Request } from 'playwright-core';
import { TaskFailedError } from '../errors.js';
import { classifyAddress, type AddressClass } from './address-class.js';

/**
 * Keeps a task's browser away from loopback, private, link-local (the cloud metadata
 * service) and other non-public addresses. Host names are resolved first and every
 * address they resolve to must be public, so `metadata.example.com → 169.254.169.254`
 * is caught too. Navigation and subrequests go through one context-wide route.
 */
export type Resolver = (host: string) => Promise<string[]>;

/** Schemes that never leave the browser process. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const WEB_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);

const DNS_TTL_MS = 30_000;
const DNS_CACHE_MAX = 1_000;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Short-lived cache: one page asks for the same CDN host dozens of times. */
export function cachingResolver(resolve: Resolver, ttlMs = DNS_TTL_MS): Resolver {
  const cache = new Map<string, { at: number; addrs: Promise<string[]> }>();
  return (host) => {
    const hit = cache.get(host);
    if (hit && Date.now() - hit.at < ttlMs) return hit.addrs;
    if (cache.size >= DNS_CACHE_MAX) cache.clear();
    const addrs = resolve(host);
    cache.set(host, { at: Date.now(), addrs });
    // A failed lookup is not cached: the next request retries it.
    addrs.catch(() => cache.delete(host));
    return addrs;
  };
}

const defaultResolver = cachingResolver(systemResolver);

export interface NetworkGuardOptions {
  /** BTS_ALLOW_PRIVATE_NETWORK: the local runtime and tests reach fixture pages on loopback. */
  allowPrivate: boolean;
  /** Tests map host names to chosen addresses; production uses the system resolver. */
  resolve?: Resolver;
}

export class NetworkGuard {
  private readonly resolve: Resolver;
  /** First refusal of a top-level navigation (including via redirect): the task's error. */
  private navigationRefusal: string | undefined;

  constructor(private readonly opts: NetworkGuardOptions) {
    this.resolve = opts.resolve ?? defaultResolver;
  }

  /** Undefined when `url` may be loaded, else the reason as a user-facing sentence. */
  async check(url: string): Promise<string | undefined> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return `Refused to load ${url}: not a valid URL`;
    }
    if (LOCAL_SCHEMES.has(parsed.protocol)) return undefined;
    if (!WEB_SCHEMES.has(parsed.protocol)) return `Refused to load ${parsed.href}: only http and https URLs are allowed`;
    if (this.opts.allowPrivate) return undefined;
    const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
    let addrs: string[];
    try {
      addrs = isIP(host) ? [host] : await this.resolve(host);
    } catch {
      return `Refused to load ${parsed.href}: the host name ${host} could not be resolved`;
    }
    if (addrs.length === 0) return `Refused to load ${parsed.href}: the host name ${host} could not be resolved`;
    for (const a of addrs) {
      const cls = classifyAddress(a);
      if (cls !== 'public') {
        return `Refused to load ${parsed.href}: private network addresses are not allowed ${describe(host, a, cls)}`;
      }
    }
    return undefined;
  }

  /** Throws the task-level error when `url` is refused. */
  async assertAllowed(url: string): Promise<void> {
    const reason = await this.check(url);
    if (reason) throw new TaskFailedError(reason);
  }

  /** Set when the page's own navigation was refused; the job turns it into its error. */
  get refusal(): string | undefined {
    return this.navigationRefusal;
  }

  async install(context: BrowserContext): Promise<void> {
    await context.route('**/*', async (route, request) => {
      const reason = await this.check(request.url());
      if (!reason) {
        await route.fallback();
        return;
      }
      if (isTopLevelNavigation(request)) this.navigationRefusal ??= reason;
      await route.abort('blockedbyclient');
    });
    await context.routeWebSocket(/.*/, async (ws) => {
      if (await this.check(ws.url())) {
        await ws.close({ code: 1008, reason: 'Refused by network policy' });
        return;
      }
      ws.connectToServer();
    });
    // Route handlers see only the first URL of a redirect chain; redirected requests are
    // checked here. They cannot be stopped any more, so a refused hop fails the task
    // (its content must not end up in the results) by recording a navigation refusal.
    context.on('request', (request) => {
      if (!request.redirectedFrom() || this.opts.allowPrivate) return;
      void this.check(request.url()).then((reason) => {
        if (reason) this.navigationRefusal ??= reason;
      });
    });
  }
}

function isTopLevelNavigation(request: Request): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    return request.frame().parentFrame() === null;
  } catch {
    // Service-worker requests have no frame; they are never top-level navigations.
    return false;
  }
}

const LABELS: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback',
  private: 'a private',
  shared: 'a carrier-grade NAT',
  'link-local': 'a link-local',
  'unique-local': 'a unique local',
  unspecified: 'an unspecified',
  multicast: 'a multicast',
  reserved: 'a reserved',
  invalid: 'an unusable',
};

/** "(10.0.0.1 is a private address)" or "(db.internal resolves to 10.0.0.1, a private address)". */
function describe(host: string, address: string, cls: Exclude<AddressClass, 'public'>): string {
  const what = `${LABELS[cls]} address`;
  return host === address ? `(${address} is ${what})` : `(${host} resolves to ${address}, ${what})`;
}
