import { randomUUID } from 'node:crypto';
import { closeBrowserSession, createBrowserSession, type BrowserSession, type BrowserSessionOptions } from '../browser/session.js';
import type { BrowserPool } from './browser-pool.js';
import type { Logger } from './log.js';

/**
 * The browser sessions of ONE MCP session. Each MCP connection gets its own registry, so
 * a sessionId from another client simply does not exist here: isolation by construction,
 * not by a check that could be forgotten.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, BrowserSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly pool: BrowserPool,
    private readonly idleTimeoutMs: number,
    private readonly log: Logger,
  ) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.max(250, Math.min(idleTimeoutMs / 4, 60_000)));
    this.sweeper.unref();
  }

  async create(opts: BrowserSessionOptions): Promise<string> {
    const session = await createBrowserSession(await this.pool.browser(), opts);
    // A short, opaque id: guessing another client's would not help, as ids are per registry.
    const id = `s_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    this.sessions.set(id, session);
    return id;
  }

  get(id: string): BrowserSession | undefined {
    return this.sessions.get(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  async closeIdle(now = Date.now()): Promise<void> {
    for (const [id, s] of this.sessions) {
      if (now - s.lastUsedAt < this.idleTimeoutMs) continue;
      this.sessions.delete(id);
      this.log.info(`closing idle browser session ${id}`);
      await closeBrowserSession(s);
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map(closeBrowserSession));
  }
}
