import { randomInt } from 'node:crypto';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { sharedBrowser } from '../browser/chromium.js';
import { TaskFailedError } from '../errors.js';
import { NetworkGuard, type Resolver } from './network-guard.js';
import { TransientWorkerError } from '../errors.js';

export type ProxySettings = NonNullable<BrowserContextOptions['proxy']>;

/** Parses `http://user:pass@host:port` into Playwright's proxy option (credentials apart). */
export function parseProxyUrl(url: string): ProxySettings {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TaskFailedError('IP rotation is misconfigured: a BTS_PROXY_POOL entry is not a valid URL');
  }
  if (!['http:', 'https:', 'socks5:'].includes(parsed.protocol)) {
    throw new TaskFailedError(`IP rotation is misconfigured: unsupported proxy scheme ${parsed.protocol} in BTS_PROXY_POOL`);
  }
  const settings: ProxySettings = { server: `${parsed.protocol}//${parsed.host}` };
  if (parsed.username) settings.username = decodeURIComponent(parsed.username);
  if (parsed.password) settings.password = decodeURIComponent(parsed.password);
  return settings;
}

/** One proxy per task, picked at random so consecutive tasks leave from different IPs. */
export function pickProxy(pool: readonly string[], pick: (n: number) => number = randomInt): ProxySettings {
  if (pool.length === 0) {
    throw new TaskFailedError('IP rotation was requested but no proxy pool is configured (BTS_PROXY_POOL)');
  }
  return parseProxyUrl(pool[pick(pool.length)] ?? '');
}

export interface TaskBrowserOptions {
  enableIpRotation: boolean;
  proxyPool: readonly string[];
  allowPrivateNetwork: boolean;
  /** Aborting closes the context, which makes any pending page call reject at once. */
  signal: AbortSignal;
  resolve?: Resolver;
}

export interface TaskBrowser {
  context: BrowserContext;
  page: Page;
  guard: NetworkGuard;
}

/**
 * Runs `fn` in a fresh browser context of the shared (warm) Chromium. Contexts are
 * Chromium's incognito profiles: cookies, storage and cache live in memory and vanish
 * with the context, so no user-data directory is left behind. Always closes it.
 */
export async function withTaskBrowser<T>(opts: TaskBrowserOptions, fn: (b: TaskBrowser) => Promise<T>): Promise<T> {
  // Decide the proxy before touching the browser: a misconfiguration fails fast.
  const proxy = opts.enableIpRotation ? pickProxy(opts.proxyPool) : undefined;
  opts.signal.throwIfAborted();
  let context: BrowserContext;
  try {
    const browser = await sharedBrowser();
    context = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      // Service workers fetch outside the context's routes, which would bypass the guard.
      serviceWorkers: 'block',
      acceptDownloads: false,
      ...(proxy ? { proxy } : {}),
    });
  } catch (err) {
    // No browser is the container's problem, not the task's: let SQS redeliver it.
    throw new TransientWorkerError('The browser could not be started', err);
  }
  const close = () => void context.close().catch(() => undefined);
  opts.signal.addEventListener('abort', close, { once: true });
  try {
    const guard = new NetworkGuard({ allowPrivate: opts.allowPrivateNetwork, ...(opts.resolve ? { resolve: opts.resolve } : {}) });
    await guard.install(context);
    const page = await context.newPage();
    return await fn({ context, page, guard });
  } finally {
    opts.signal.removeEventListener('abort', close);
    await context.close().catch(() => undefined);
  }
}
