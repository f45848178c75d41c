import type { Browser } from 'playwright-core';
import { TransientWorkerError } from '../errors.js';
import type { BrowserLauncher, BrowserLease } from './chromium.js';
import { startEgressProxy } from './network/egress-proxy.js';
import { NetworkGuard, type NetworkPolicy } from './network/guard.js';
import {
  closeBrowserSession,
  createBrowserSession,
  type BrowserSession,
  type BrowserSessionOptions,
} from './session.js';

export interface GuardedSessionOptions extends BrowserSessionOptions {
  network: NetworkPolicy;
}

export interface GuardedSession {
  session: BrowserSession;
  guard: NetworkGuard;
  close(): Promise<void>;
}

/**
 * The only way the service opens a browser for a caller: an isolated context (Chromium's
 * incognito profile: cookies, storage and cache in memory, gone with the context) whose
 * traffic leaves through the guarded egress proxy, with the route guard in front (fast,
 * readable refusals) and the guard's bypasses shut: service workers fetch outside the
 * context's routes and downloads write to disk, so both are off whatever the caller's
 * context options say.
 */
export async function openGuardedSession(browser: Browser, opts: GuardedSessionOptions): Promise<GuardedSession> {
  // An operator's upstream proxy (IP rotation, the MCP --proxy default) resolves and dials
  // on its own network; everything else leaves through our egress proxy.
  const egress = opts.proxy ? undefined : await startEgressProxy(opts.network);
  let session: BrowserSession;
  try {
    session = await createBrowserSession(browser, {
      ...opts,
      contextOptions: {
        ...opts.contextOptions,
        ...(egress ? { proxy: { server: egress.server } } : {}),
        serviceWorkers: 'block',
        acceptDownloads: false,
      },
    });
  } catch (err) {
    await egress?.close();
    throw err;
  }
  const close = async () => {
    await closeBrowserSession(session);
    await egress?.close();
  };
  const guard = new NetworkGuard(opts.network);
  try {
    await guard.install(session.context);
  } catch (err) {
    await close();
    throw err;
  }
  return { session, guard, close };
}

/**
 * Runs `fn` in a guarded session of the launcher's warm browser and always closes it.
 * Aborting `signal` (a budget, a cancel) closes it at once, which makes any pending page
 * call reject.
 */
export async function withGuardedSession<T>(
  launcher: BrowserLauncher,
  opts: GuardedSessionOptions & { signal: AbortSignal; tenant: string },
  fn: (g: GuardedSession) => Promise<T>,
): Promise<T> {
  const guarded = await leaseGuardedSession(launcher, opts.tenant, opts);
  const close = () => void guarded.close();
  opts.signal.addEventListener('abort', close, { once: true });
  try {
    return await fn(guarded);
  } finally {
    opts.signal.removeEventListener('abort', close);
    await guarded.close();
  }
}

/**
 * A guarded session in the tenant's own browser; closing it also gives the browser back.
 * A failure to start is transient (the container's problem, not the task's).
 */
export async function leaseGuardedSession(
  launcher: BrowserLauncher,
  tenant: string,
  opts: GuardedSessionOptions & { signal?: AbortSignal },
): Promise<GuardedSession> {
  opts.signal?.throwIfAborted();
  let lease: BrowserLease | undefined;
  try {
    lease = await launcher.lease(tenant);
    const guarded = await openGuardedSession(lease.browser, opts);
    const release = lease.release;
    return { ...guarded, close: () => guarded.close().finally(release) };
  } catch (err) {
    lease?.release();
    throw new TransientWorkerError('The browser could not be started', err);
  }
}
