import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { fingerprintFromSeed, fingerprintInitScript, type Fingerprint } from './fingerprint.js';
import { Humanizer, type HumanPreset } from './humanize.js';
import { parseProxyUrl } from './proxy.js';

/**
 * One task's browser: an isolated BrowserContext (own cookies, storage, proxy and
 * fingerprint), its current page, the refs of the last snapshot (for stale-ref recovery)
 * and the input style. The MCP server holds many; the agent holds exactly one.
 */
export interface BrowserSessionOptions {
  /** HTTP, HTTPS or SOCKS5 proxy URL; credentials may be in the URL. */
  proxy?: string;
  /** Fingerprint seed; a random one is drawn when absent. */
  fingerprint?: string;
  humanize?: boolean;
  humanPreset?: HumanPreset;
  /** Extra Playwright context options; they win over the fingerprint's. */
  contextOptions?: BrowserContextOptions;
}

/** What a ref pointed at when the snapshot was taken. */
export interface RefTarget {
  role: string;
  name: string;
}

const MAX_REMEMBERED_REFS = 5_000;

export class BrowserSession {
  readonly id = randomUUID();
  /** Refs seen in this document's snapshots, newest last; cleared on navigation. */
  refs = new Map<string, RefTarget>();
  lastUsedAt = Date.now();
  private currentPage: Page;

  constructor(
    readonly context: BrowserContext,
    page: Page,
    readonly fingerprint: Fingerprint,
    readonly humanizer: Humanizer | undefined,
  ) {
    this.currentPage = page;
    // Pages opened by the site (target=_blank, window.open) become the current page, as a person would follow them.
    context.on('page', (p) => {
      this.currentPage = p;
      p.on('close', () => {
        if (this.currentPage === p) this.currentPage = context.pages().at(-1) ?? p;
      });
    });
  }

  get page(): Page {
    return this.currentPage;
  }

  /**
   * Older refs are kept (not replaced) so a ref issued before a re-render can still be
   * recovered by role and name after later snapshots; bounded so long sessions stay small.
   */
  rememberRefs(refs: Map<string, RefTarget>): void {
    for (const [ref, target] of refs) {
      this.refs.delete(ref);
      this.refs.set(ref, target);
    }
    for (const ref of this.refs.keys()) {
      if (this.refs.size <= MAX_REMEMBERED_REFS) break;
      this.refs.delete(ref);
    }
  }

  touch(): void {
    this.lastUsedAt = Date.now();
  }
}

export async function createBrowserSession(
  browser: Browser,
  opts: BrowserSessionOptions = {},
): Promise<BrowserSession> {
  const fp = fingerprintFromSeed(opts.fingerprint ?? randomUUID());
  const context = await browser.newContext({
    userAgent: fp.userAgent,
    viewport: fp.viewport,
    deviceScaleFactor: fp.deviceScaleFactor,
    locale: fp.locale,
    timezoneId: fp.timezoneId,
    colorScheme: fp.colorScheme,
    extraHTTPHeaders: { 'Accept-Language': `${fp.locale},${fp.locale.split('-')[0]};q=0.9` },
    ...(opts.proxy ? { proxy: parseProxyUrl(opts.proxy) } : {}),
    ...opts.contextOptions,
  });
  await context.addInitScript({ content: fingerprintInitScript(fp) });
  const page = await context.newPage();
  const humanizer = opts.humanize ? new Humanizer(opts.humanPreset ?? 'default') : undefined;
  return new BrowserSession(context, page, fp, humanizer);
}

export async function closeBrowserSession(session: BrowserSession): Promise<void> {
  await session.context.close().catch(() => undefined);
}
