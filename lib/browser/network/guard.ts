import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { BrowserContext, Request } from 'playwright-core';
import { NetworkRefusedError } from '../../errors.js';
import { classifyAddress, type AddressClass } from './address.js';

/** Host name → addresses. Tests map names to chosen addresses; production asks DNS. */
export type Resolver = (host: string) => Promise<string[]>;

/**
 * Where a browser or fetch we run for a caller may connect. Anything that is not a
 * globally routable unicast address is refused, so the service cannot become a way into
 * our own network (VPC, the metadata service, localhost). Host names are resolved first
 * and every address must be public, so `metadata.example.com → 169.254.169.254` is caught.
 */
export interface NetworkPolicy {
  /** BTS_ALLOW_PRIVATE_NETWORK: the local runtime and tests reach fixture pages on loopback. */
  allowPrivate: boolean;
  resolve: Resolver;
  /**
   * Ports refused on non-public addresses even when private networks are allowed: the
   * local runtime's own emulators, which a page must never reach.
   */
  refusedLocalPorts?: ReadonlySet<number>;
  /**
   * Where a judged address is actually dialled. Production dials it as is; tests stand a
   * loopback fixture in for a public address, so the guard judges what production would.
   */
  dial?: (address: string, port: number) => { address: string; port: number };
  /**
   * Extra CA certificates (PEM) that fetches from Node trust beside the system's. Only
   * tests set it, so a loopback HTTPS server can stand in for a public API under its real
   * name; nothing in the configuration reaches it.
   */
  extraCa?: string;
}

/** Schemes that never leave the browser process. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const WEB_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);

const DNS_TTL_MS = 30_000;
const DNS_CACHE_MAX = 1_000;

const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

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

export const defaultResolver: Resolver = cachingResolver(systemResolver);

export function networkPolicy(
  allowPrivate: boolean,
  resolve: Resolver = defaultResolver,
  extra: Pick<NetworkPolicy, 'refusedLocalPorts' | 'dial' | 'extraCa'> = {},
): NetworkPolicy {
  return { allowPrivate, resolve, ...extra };
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'ws:': 80, 'https:': 443, 'wss:': 443 };

/** The address and port a connection to a judged address really goes to. */
export function dialTarget(policy: NetworkPolicy, address: string, port: number): { address: string; port: number } {
  return policy.dial ? policy.dial(address, port) : { address, port };
}

export type UrlVerdict = { allowed: true; host: string; addresses: string[] } | { allowed: false; reason: string };

/**
 * Judges a URL under the policy: allowed with the addresses it may connect to (callers
 * connect to exactly these, so a second DNS answer cannot swap in a private one), or
 * refused with a sentence saying why.
 */
export async function checkUrl(policy: NetworkPolicy, url: string): Promise<UrlVerdict> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { allowed: false, reason: `Refused to load ${url}: not a valid URL` };
  }
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  if (LOCAL_SCHEMES.has(parsed.protocol)) return { allowed: true, host, addresses: [] };
  if (!WEB_SCHEMES.has(parsed.protocol))
    return { allowed: false, reason: `Refused to load ${parsed.href}: only http and https URLs are allowed` };
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await policy.resolve(host);
  } catch {
    return { allowed: false, reason: `Refused to load ${parsed.href}: the host name ${host} could not be resolved` };
  }
  if (addresses.length === 0)
    return { allowed: false, reason: `Refused to load ${parsed.href}: the host name ${host} could not be resolved` };
  const port = Number(parsed.port || DEFAULT_PORTS[parsed.protocol] || 0);
  if (policy.allowPrivate) {
    const local = addresses.find((a) => classifyAddress(a) !== 'public');
    if (local && policy.refusedLocalPorts?.has(port)) {
      return {
        allowed: false,
        reason: `Refused to load ${parsed.href}: port ${port} of ${host} belongs to the service itself`,
      };
    }
    return { allowed: true, host, addresses };
  }
  for (const a of addresses) {
    const cls = classifyAddress(a);
    if (cls !== 'public') {
      return {
        allowed: false,
        reason: `Refused to load ${parsed.href}: private network addresses are not allowed ${describe(host, a, cls)}`,
      };
    }
  }
  return { allowed: true, host, addresses };
}

/**
 * The policy applied to one browser context: every navigation, subrequest and WebSocket
 * goes through one context-wide route, and the first refused top-level navigation is kept
 * as the reason the caller's work failed.
 */
export class NetworkGuard {
  private navigationRefusal: string | undefined;
  /** Redirect hops still being judged; `settled()` waits for them before a caller trusts `refusal`. */
  private readonly pending = new Set<Promise<void>>();

  constructor(readonly policy: NetworkPolicy) {}

  /** Undefined when `url` may be loaded, else the reason as a user-facing sentence. */
  async check(url: string): Promise<string | undefined> {
    const verdict = await checkUrl(this.policy, url);
    return verdict.allowed ? undefined : verdict.reason;
  }

  async assertAllowed(url: string): Promise<void> {
    const reason = await this.check(url);
    if (reason) throw new NetworkRefusedError(reason);
  }

  /** Set when the page's own navigation was refused; the caller turns it into its error. */
  get refusal(): string | undefined {
    return this.navigationRefusal;
  }

  /** The refusal once every redirect hop seen so far has been judged. */
  async settled(): Promise<string | undefined> {
    await Promise.all([...this.pending]);
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
    // Route handlers see only the first URL of a redirect chain. The egress proxy stops a
    // refused hop before it connects; here it is also recorded, so the caller's work fails
    // instead of going on with an error page where the content was expected.
    context.on('request', (request) => {
      if (!request.redirectedFrom()) return;
      const judged = this.check(request.url()).then((reason) => {
        if (reason) this.navigationRefusal ??= reason;
      });
      this.pending.add(judged);
      void judged.finally(() => this.pending.delete(judged));
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
