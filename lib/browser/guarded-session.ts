import type { Browser } from 'playwright-core';
import { TransientWorkerError } from '../errors.js';
import type { BrowserLauncher } from './chromium.js';
import { NetworkGuard, type NetworkPolicy } from './network/guard.js';
import { closeBrowserSession, createBrowserSession, type BrowserSession, type BrowserSessionOptions } from './session.js';

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
 * incognito profile: cookies, storage and cache in memory, gone with the context) with
 * the network guard on every request, and the guard's bypasses shut: service workers
 * fetch outside the context's routes and downloads write to disk, so both are off
 * whatever the caller's context options say.
 */
export async function openGuardedSession(browser: Browser, opts: GuardedSessionOptions): Promise<GuardedSession> {
  const session = await createBrowserSession(browser, {
    ...opts,
    contextOptions: { ...opts.contextOptions, serviceWorkers: 'block', acceptDownloads: false },
  });
  const guard = new NetworkGuard(opts.network);
  try {
    await guard.install(session.context);
  } catch (err) {
    await closeBrowserSession(session);
    throw err;
  }
  return { session, guard, close: () => closeBrowserSession(session) };
}

/**
 * Runs `fn` in a guarded session of the launcher's warm browser and always closes it.
 * Aborting `signal` (a budget, a cancel) closes it at once, which makes any pending page
 * call reject.
 */
export async function withGuardedSession<T>(
  launcher: BrowserLauncher,
  opts: GuardedSessionOptions & { signal: AbortSignal },
  fn: (g: GuardedSession) => Promise<T>,
): Promise<T> {
  opts.signal.throwIfAborted();
  let guarded: GuardedSession;
  try {
    guarded = await openGuardedSession(await launcher.browser(), opts);
  } catch (err) {
    // No browser is the container's problem, not the task's: let the queue redeliver it.
    throw new TransientWorkerError('The browser could not be started', err);
  }
  const close = () => void guarded.close();
  opts.signal.addEventListener('abort', close, { once: true });
  try {
    return await fn(guarded);
  } finally {
    opts.signal.removeEventListener('abort', close);
    await guarded.close();
  }
}
