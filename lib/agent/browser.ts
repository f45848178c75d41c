import type { BrowserContextOptions } from 'playwright-core';
import { sharedBrowser } from '../browser/chromium.js';
import { closeBrowserSession, createBrowserSession, type BrowserSession } from '../browser/session.js';
import { NetworkGuard, type Resolver } from '../worker/network-guard.js';
import { TransientWorkerError } from '../errors.js';
import type { StepRecorder } from './recorder.js';
import type { StorageState } from './session-state.js';

/**
 * The agent's one browser session: a fresh context of the warm shared Chromium with a
 * fingerprint (the tool layer's BrowserSession), the private-network guard, the previous
 * turn's storage state, and a navigation listener feeding `visitedUrls`. Aborting the
 * signal (budget, cancel) closes it, which makes any pending page call reject at once.
 */
export interface AgentBrowserOptions {
  signal: AbortSignal;
  allowPrivateNetwork: boolean;
  storageState?: StorageState;
  recorder: StepRecorder;
  resolve?: Resolver;
}

export interface AgentBrowser {
  session: BrowserSession;
  guard: NetworkGuard;
}

export async function withAgentBrowser<T>(opts: AgentBrowserOptions, fn: (b: AgentBrowser) => Promise<T>): Promise<T> {
  opts.signal.throwIfAborted();
  const contextOptions: BrowserContextOptions = {
    // Service workers fetch outside the context's routes, which would bypass the guard.
    serviceWorkers: 'block',
    acceptDownloads: false,
    ...(opts.storageState ? { storageState: opts.storageState } : {}),
  };
  let session: BrowserSession;
  try {
    session = await createBrowserSession(await sharedBrowser(), { contextOptions });
  } catch (err) {
    // No browser is the container's problem, not the task's: let SQS redeliver it.
    throw new TransientWorkerError('The browser could not be started', err);
  }
  const close = () => void closeBrowserSession(session);
  opts.signal.addEventListener('abort', close, { once: true });
  try {
    const guard = new NetworkGuard({ allowPrivate: opts.allowPrivateNetwork, ...(opts.resolve ? { resolve: opts.resolve } : {}) });
    await guard.install(session.context);
    const track = (page: BrowserSession['page']) =>
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) opts.recorder.visit(frame.url());
      });
    for (const p of session.context.pages()) track(p);
    session.context.on('page', track);
    return await fn({ session, guard });
  } finally {
    opts.signal.removeEventListener('abort', close);
    await closeBrowserSession(session);
  }
}
