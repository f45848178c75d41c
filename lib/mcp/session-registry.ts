import { randomUUID } from 'node:crypto';
import type { BrowserLauncher } from '../browser/chromium.js';
import { leaseGuardedSession, type GuardedSession } from '../browser/guarded-session.js';
import type { NetworkPolicy } from '../browser/network/guard.js';
import type { BrowserSession, BrowserSessionOptions } from '../browser/session.js';
import type { Logger } from './log.js';

/**
 * The browser sessions of ONE MCP session. Each MCP connection gets its own registry, so
 * a sessionId from another client simply does not exist here: isolation by construction,
 * not by a check that could be forgotten. Every session is a guarded one.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, GuardedSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly launcher: BrowserLauncher,
    /** Whose sessions these are (an API key's identity, or `stdio`): the browser is theirs alone. */
    private readonly tenant: string,
    private readonly network: NetworkPolicy,
    private readonly idleTimeoutMs: number,
    private readonly log: Logger,
  ) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.max(250, Math.min(idleTimeoutMs / 4, 60_000)));
    this.sweeper.unref();
  }

  async create(opts: BrowserSessionOptions): Promise<string> {
    const guarded = await leaseGuardedSession(this.launcher, this.tenant, { ...opts, network: this.network });
    // A short, opaque id: guessing another client's would not help, as ids are per registry.
    const id = `s_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    this.sessions.set(id, guarded);
    return id;
  }

  get(id: string): BrowserSession | undefined {
    return this.sessions.get(id)?.session;
  }

  get size(): number {
    return this.sessions.size;
  }

  async closeIdle(now = Date.now()): Promise<void> {
    for (const [id, g] of this.sessions) {
      if (now - g.session.lastUsedAt < this.idleTimeoutMs) continue;
      this.sessions.delete(id);
      this.log.info(`closing idle browser session ${id}`);
      await g.close();
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((g) => g.close()));
  }
}
