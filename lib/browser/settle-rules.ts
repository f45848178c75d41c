/**
 * When an action's consequences are over, as pure bookkeeping: the Playwright glue in
 * settle.ts feeds events with their times, and `decide` says whether to keep waiting.
 * Only what the action caused is waited for (its requests, a navigation it started,
 * timers it scheduled, DOM mutations after it), never global network idle: a long poll,
 * a beacon or a websocket the page opened earlier must not hold a tool.
 */
export interface SettleLimits {
  /** Hard cap from the action's start: a tool answers by then whatever the page does. */
  capMs: number;
  /**
   * How long after the last cause (the action's end, a tracked request's start or end, a
   * tracked timer) a new request still counts as caused by the action, and the least
   * time an action is watched: a click handler's fetch or `location.href = …` shows up
   * in the network a few milliseconds after the click returns.
   */
  windowMs: number;
  /** The DOM counts as settled after this long without a mutation. */
  quietMs: number;
  /** A page that never stops mutating (an animation, a ticker) stops holding the tool after this, once all else is done. */
  domBusyMaxMs: number;
}

export const SETTLE_LIMITS: SettleLimits = { capMs: 5_000, windowMs: 40, quietMs: 40, domBusyMaxMs: 1_000 };

/**
 * Request types an action waits for: data calls, frames and code it loads. Images, media,
 * fonts, event streams, websockets and beacons (`ping`) are not waited for: they either
 * never end or do not change what a snapshot reads.
 */
const WAITED_TYPES = new Set(['fetch', 'xhr', 'document', 'script']);

export const isWaitedRequestType = (resourceType: string): boolean => WAITED_TYPES.has(resourceType);

/** What the page-side probe reports (see settle-page.ts). */
export interface ProbeReading {
  /** DOM mutations since the probe was armed for this action. */
  mutations: number;
  /** Timers the action scheduled (directly or from its own timers) that have not fired. */
  timers: number;
  /** Milliseconds since the last mutation or tracked timer callback, on the page's clock. */
  quietForMs: number;
}

export type SettleOutcome = { kind: 'navigated'; url: string } | { kind: 'updated' } | { kind: 'unchanged' };

export interface SettleReport {
  outcome: SettleOutcome;
  waitedMs: number;
  /** Set when the cap ended the wait: what was still going on. */
  stillBusy?: string;
}

export type Decision = { done: false } | { done: true; capped: boolean };

export class SettleTracker {
  private actionDoneAt: number | undefined;
  private lastCause: number;
  private readonly pending = new Map<unknown, string>();
  private navStartedAt: number | undefined;
  private navFinishedAt: number | undefined;
  private navCommitted = false;
  private navLoaded = false;
  private pageSwitched = false;
  private popupPending = false;
  private urlChanged = false;
  private pageActivityAt: number | undefined;
  private probe: ProbeReading | undefined;
  private mutations = 0;
  private busySince: number | undefined;

  constructor(
    readonly startedAt: number,
    readonly limits: SettleLimits = SETTLE_LIMITS,
  ) {
    this.lastCause = startedAt;
  }

  actionDone(at: number): void {
    this.actionDoneAt = at;
    this.lastCause = Math.max(this.lastCause, at);
  }

  /** True while a new request would still be counted as caused by the action. */
  windowOpen(at: number): boolean {
    if (this.navCommitted || this.pageSwitched) return false;
    return (
      this.actionDoneAt === undefined || at - this.lastCause < this.limits.windowMs || (this.probe?.timers ?? 0) > 0
    );
  }

  /** A request the action may have caused; returns whether it is being waited for. */
  requestStarted(key: unknown, url: string, resourceType: string, at: number): boolean {
    if (!isWaitedRequestType(resourceType) || !this.windowOpen(at)) return false;
    this.pending.set(key, url);
    this.lastCause = Math.max(this.lastCause, at);
    return true;
  }

  requestEnded(key: unknown, at: number): void {
    if (!this.pending.delete(key)) return;
    this.lastCause = Math.max(this.lastCause, at);
  }

  /** The main frame started loading a new document (a link, a form post, `location.href = …`). */
  navigationStarted(at: number): void {
    this.navStartedAt ??= at;
    // A redirect hop is a new request of the same navigation: it is not over yet.
    this.navFinishedAt = undefined;
    this.lastCause = Math.max(this.lastCause, at);
  }

  /** The navigation's request ended without a new document (a 204, a refused or failed load, a download). */
  navigationRequestEnded(failed: boolean, at: number): void {
    if (this.navStartedAt === undefined) return;
    this.navFinishedAt = at;
    // Its new document, if any, commits within the window that this starts.
    this.lastCause = Math.max(this.lastCause, at);
    if (failed && !this.navCommitted) this.navStartedAt = undefined;
  }

  /** The new document replaced the old: the old page's requests and timers no longer matter. */
  navigationCommitted(at: number): void {
    this.navCommitted = true;
    this.pending.clear();
    this.probe = undefined;
    this.pageActivityAt = at;
    this.lastCause = Math.max(this.lastCause, at);
  }

  domContentLoaded(at: number): void {
    if (this.navStartedAt === undefined && !this.pageSwitched) return;
    this.navLoaded = true;
    this.lastCause = Math.max(this.lastCause, at);
  }

  /**
   * A new tab's first document is being requested (a target=_blank link, window.open).
   * The browser announces the tab itself only once that document answers, so this is the
   * early sign that one is coming.
   */
  popupRequested(at: number): boolean {
    if (!this.windowOpen(at)) return false;
    this.popupPending = true;
    this.lastCause = Math.max(this.lastCause, at);
    return true;
  }

  /** The new tab's first request failed (refused, unreachable): no tab will take over. */
  popupFailed(at: number): void {
    if (!this.popupPending || this.pageSwitched) return;
    this.popupPending = false;
    this.lastCause = Math.max(this.lastCause, at);
  }

  /** The action opened a new tab, which became the session's page. */
  switchedPage(at: number): void {
    this.popupPending = false;
    this.pageSwitched = true;
    this.navStartedAt ??= at;
    this.navCommitted = true;
    this.pending.clear();
    this.probe = undefined;
    this.lastCause = Math.max(this.lastCause, at);
  }

  sameDocumentNavigation(): void {
    this.urlChanged = true;
  }

  probed(reading: ProbeReading, at: number): void {
    this.probe = reading;
    if (!this.navCommitted) this.mutations = Math.max(this.mutations, reading.mutations);
    this.pageActivityAt = Math.max(this.pageActivityAt ?? 0, at - reading.quietForMs);
    if (reading.timers > 0) this.lastCause = Math.max(this.lastCause, at);
  }

  private get navigationPending(): boolean {
    if (this.navStartedAt === undefined || this.navLoaded) return false;
    // A navigation request that ended without a new document within a window leaves the page as it was.
    return !(this.navFinishedAt !== undefined && !this.navCommitted);
  }

  decide(now: number): Decision {
    if (now - this.startedAt >= this.limits.capMs) return { done: true, capped: true };
    if (this.actionDoneAt === undefined || this.navigationPending || this.popupPending || this.pending.size > 0)
      return { done: false };
    if ((this.probe?.timers ?? 0) > 0) return { done: false };
    if (now - this.lastCause < this.limits.windowMs) return { done: false };
    const quietSince = Math.max(this.lastCause, this.pageActivityAt ?? 0);
    if (now - quietSince >= this.limits.quietMs) return { done: true, capped: false };
    // Everything the action caused is over and only the DOM keeps moving: give it a bounded while.
    this.busySince ??= now;
    return now - this.busySince >= this.limits.domBusyMaxMs ? { done: true, capped: false } : { done: false };
  }

  /** Whether a fresh probe of the page is useful (not between a navigation's start and its new document). */
  get wantsProbe(): boolean {
    return !(this.navStartedAt !== undefined && !this.navCommitted && this.navFinishedAt === undefined);
  }

  stillBusy(): string | undefined {
    const parts: string[] = [];
    if (this.navigationPending) parts.push('the new page was still loading');
    if (this.popupPending) parts.push('a new tab was still opening');
    if (this.pending.size > 0) {
      const first = [...this.pending.values()][0] ?? '';
      parts.push(`${this.pending.size} request(s) still running, e.g. ${first}`);
    }
    if ((this.probe?.timers ?? 0) > 0) parts.push(`${this.probe?.timers} timer(s) still pending`);
    return parts.length ? parts.join('; ') : undefined;
  }

  outcome(currentUrl: string): SettleOutcome {
    if (this.navCommitted || this.pageSwitched || this.urlChanged) return { kind: 'navigated', url: currentUrl };
    return this.mutations > 0 ? { kind: 'updated' } : { kind: 'unchanged' };
  }
}

/** The line a tool answer adds after "Clicked …": what the action did to the page. */
export function describeSettle(report: SettleReport): string {
  const what =
    report.outcome.kind === 'navigated'
      ? // Chromium shows its own error page when a navigation is refused or fails.
        report.outcome.url.startsWith('chrome-error:')
        ? 'navigation failed: the browser shows an error page (the address was refused or could not be loaded)'
        : `navigated to ${report.outcome.url}`
      : report.outcome.kind === 'updated'
        ? 'page updated'
        : 'no visible change';
  const busy = report.stillBusy
    ? ` (answered after ${(report.waitedMs / 1000).toFixed(1)} s while ${report.stillBusy})`
    : '';
  return `${what}${busy}`;
}
