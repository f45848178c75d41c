import type { BrowserLauncher } from '../browser/chromium.js';
import { leaseGuardedSession, type GuardedSession } from '../browser/guarded-session.js';
import type { NetworkPolicy } from '../browser/network/guard.js';
import type { BrowserSession } from '../browser/session.js';
import { injectCookies, type PlatformCookie } from './credentials.js';
import type { StepRecorder } from './recorder.js';
import type { StorageState } from './session-state.js';

export interface AgentBrowserOptions {
  launcher: BrowserLauncher;
  /** The business the task runs for: it gets a browser of its own. */
  tenant: string;
  network: NetworkPolicy;
  signal: AbortSignal;
  /** The previous turn's cookies and localStorage. */
  storageState?: StorageState;
  /** The end-user's platform cookies, set before the first request. */
  cookies: readonly PlatformCookie[];
  recorder: StepRecorder;
}

/**
 * The agent's one browser session, opened on the first tool that needs a page: a task
 * answered from site knowledge and public endpoints never launches Chromium. Once open
 * it is a guarded, fingerprinted context with the previous turn's storage state, the
 * end-user's cookies, and a navigation listener feeding `visitedUrls`. Aborting the
 * signal (budget, cancel) closes it, which makes any pending page call reject at once.
 */
export class AgentBrowser {
  private opening: Promise<GuardedSession> | undefined;
  private guarded: GuardedSession | undefined;
  private readonly closeOnAbort = () => void this.close();

  constructor(private readonly opts: AgentBrowserOptions) {
    opts.signal.addEventListener('abort', this.closeOnAbort, { once: true });
  }

  get opened(): boolean {
    return this.guarded !== undefined;
  }

  /** The guard's first refused navigation, once every redirect hop seen so far has been judged. */
  async refusal(): Promise<string | undefined> {
    return this.guarded?.guard.settled();
  }

  /** The open session, if any, without opening one. */
  get current(): BrowserSession | undefined {
    return this.guarded?.session;
  }

  async session(): Promise<BrowserSession> {
    this.opening ??= this.open();
    return (await this.opening).session;
  }

  private async open(): Promise<GuardedSession> {
    const contextOptions = this.opts.storageState ? { storageState: this.opts.storageState } : {};
    const guarded = await leaseGuardedSession(this.opts.launcher, this.opts.tenant, {
      network: this.opts.network,
      contextOptions,
      signal: this.opts.signal,
    });
    this.guarded = guarded;
    // Cookies go in before the first navigation, so the very first request is signed in.
    await injectCookies(guarded.session.context, this.opts.cookies);
    const track = (page: BrowserSession['page']) =>
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) this.opts.recorder.visit(frame.url());
      });
    for (const p of guarded.session.context.pages()) track(p);
    guarded.session.context.on('page', track);
    return guarded;
  }

  async close(): Promise<void> {
    this.opts.signal.removeEventListener('abort', this.closeOnAbort);
    await this.guarded?.close();
  }
}
