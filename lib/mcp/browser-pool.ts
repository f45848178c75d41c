import type { Browser } from 'playwright-core';
import { launchBrowser } from '../browser/chromium.js';

/**
 * One Chromium per server process, launched on first use (auth checks and `knowledge`
 * never pay for it) and relaunched if it died. Every MCP session gets isolated contexts.
 */
export class BrowserPool {
  private pending: Promise<Browser> | undefined;

  constructor(private readonly headless: boolean) {}

  async browser(): Promise<Browser> {
    if (this.pending) {
      const b = await this.pending.catch(() => undefined);
      if (b?.isConnected()) return b;
    }
    this.pending = launchBrowser({ headless: this.headless });
    return this.pending;
  }

  async close(): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    const b = await pending?.catch(() => undefined);
    await b?.close().catch(() => undefined);
  }
}
