import { randomUUID } from 'node:crypto';
import type { BrowserLauncher } from '../browser/chromium.js';
import { leaseGuardedSession, type GuardedSession } from '../browser/guarded-session.js';
import type { NetworkPolicy } from '../browser/network/guard.js';
import type { BrowserSession, BrowserSessionOptions } from '../browser/session.js';
import { ToolError } from '../errors.js';
import type { Logger } from './log.js';

/**
 * The browser sessions of ONE MCP session. Each MCP connection gets its own registry, so
 * a sessionId from another client simply does not exist here: isolation by construction,
 * not by a check that could be forgotten. Every session is a guarded one, and there are
 * at most `maxSessions` of them, so one client cannot take the host's memory.
 */
export interface RegistryLimits {
  idleTimeoutMs: number;
  maxSessions: number;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, GuardedSession>();
  /** Sessions being opened count against the cap, so concurrent create calls cannot overshoot it. */
  private opening = 0;
  /** Started with the first session: an MCP session that never opens a browser holds no timer. */
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly launcher: BrowserLauncher,
    /** Whose sessions these are (an API key's identity, or `stdio`): the browser is theirs alone. */
    private readonly tenant: string,
    private readonly network: NetworkPolicy,
    private readonly limits: RegistryLimits,
    private readonly log: Logger,
  ) {}

  async create(opts: BrowserSessionOptions): Promise<string> {
    if (this.closed) throw new ToolError('This MCP session is closing; no browser session can be opened.');
    if (this.sessions.size + this.opening >= this.limits.maxSessions) {
      throw new ToolError(
        `This MCP session already has ${this.limits.maxSessions} open browser sessions, the most this server allows (--max-browser-sessions). ` +
          `Reuse one of their sessionIds; unused ones close after ${Math.round(this.limits.idleTimeoutMs / 60_000)} min idle, and all close with the MCP session.`,
      );
    }
    this.opening++;
    let guarded: GuardedSession;
    try {
      guarded = await leaseGuardedSession(this.launcher, this.tenant, { ...opts, network: this.network });
    } finally {
      this.opening--;
    }
    if (this.closed) {
      await guarded.close();
      throw new ToolError('This MCP session closed while the browser session was opening.');
    }
    // A short, opaque id: guessing another client's would not help, as ids are per registry.
    const id = `s_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    this.sessions.set(id, guarded);
    this.startSweeper();
    this.log.info(`browser session ${id} opened (${this.sessions.size}/${this.limits.maxSessions})`);
    return id;
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(
      () => void this.closeIdle(),
      Math.max(250, Math.min(this.limits.idleTimeoutMs / 4, 60_000)),
    );
    this.sweeper.unref();
  }

  get(id: string): BrowserSession | undefined {
    return this.sessions.get(id)?.session;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Whether a sweep timer is running (it stops when the registry is closed). */
  get sweeping(): boolean {
    return this.sweeper !== undefined;
  }

  async closeIdle(now = Date.now()): Promise<void> {
    for (const [id, g] of this.sessions) {
      if (now - g.session.lastUsedAt < this.limits.idleTimeoutMs) continue;
      this.sessions.delete(id);
      this.log.info(`closing idle browser session ${id}`);
      await g.close();
    }
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((g) => g.close()));
  }
}
