import type { Frame, Page, Request } from 'playwright-core';
import { armProbe, readProbe } from './settle-page.js';
import { SETTLE_LIMITS, SettleTracker, type SettleLimits, type SettleReport } from './settle-rules.js';
import type { BrowserSession } from './session.js';

/**
 * Runs an action (click, submit, key press, select, back…) and waits for what it caused
 * before answering, so the snapshot a caller takes next shows the new state: a navigation
 * it started (until the new document's DOMContentLoaded), the requests it started (until
 * they end), the timers it scheduled, then a short DOM quiet. It waits only as long as
 * the page needs and never longer than the cap; the rules live in settle-rules.ts.
 */
const POLL_MS = 15;
/** A probe round trip that takes longer than this is a document in transition; try again. */
const PROBE_TIMEOUT_MS = 250;

export interface SettledAction<T> {
  value: T;
  report: SettleReport;
}

export async function settleAfter<T>(
  session: BrowserSession,
  action: () => Promise<T>,
  limits: SettleLimits = SETTLE_LIMITS,
): Promise<SettledAction<T>> {
  const page = session.page;
  const startUrl = page.url();
  // Armed before the action so the observer and the timer watch see its first effects.
  await armProbe(page, true, PROBE_TIMEOUT_MS);
  const tracker = new SettleTracker(Date.now(), limits);
  let wake: () => void = () => undefined;
  const nudge = (): void => wake();

  const isMainDocument = (r: Request): boolean => {
    try {
      return r.isNavigationRequest() && r.frame() === page.mainFrame();
    } catch {
      return false; // service-worker requests have no frame
    }
  };
  const onRequest = (r: Request): void => {
    const at = Date.now();
    if (isMainDocument(r)) tracker.navigationStarted(at);
    else tracker.requestStarted(r, r.url(), r.resourceType(), at);
    nudge();
  };
  const onEnd =
    (failed: boolean) =>
    (r: Request): void => {
      const at = Date.now();
      if (isMainDocument(r)) tracker.navigationRequestEnded(failed, at);
      else tracker.requestEnded(r, at);
      nudge();
    };
  const onFinished = onEnd(false);
  const onFailed = onEnd(true);
  const onNavigated = (frame: Frame): void => {
    if (frame !== page.mainFrame()) return;
    tracker.navigationCommitted(Date.now());
    nudge();
  };
  // A new tab's first request shows on the context before the tab itself is announced.
  const popupRequests = new Set<Request>();
  const isPopupDocument = (r: Request): boolean => {
    if (!r.isNavigationRequest()) return false;
    try {
      const frame = r.frame();
      return frame.page() !== page && frame.parentFrame() === null;
    } catch {
      return true; // the frame of a tab not announced yet
    }
  };
  const onContextRequest = (r: Request): void => {
    if (isPopupDocument(r) && tracker.popupRequested(Date.now())) popupRequests.add(r);
    nudge();
  };
  const onContextRequestFailed = (r: Request): void => {
    if (popupRequests.delete(r)) tracker.popupFailed(Date.now());
    nudge();
  };
  const onPage = (): void => nudge();
  const onDomContentLoaded = (): void => {
    tracker.domContentLoaded(Date.now());
    nudge();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onFinished);
  page.on('requestfailed', onFailed);
  page.on('framenavigated', onNavigated);
  page.on('domcontentloaded', onDomContentLoaded);
  const context = page.context();
  context.on('request', onContextRequest);
  context.on('requestfailed', onContextRequestFailed);
  context.on('page', onPage);

  try {
    const value = await action();
    tracker.actionDone(Date.now());
    const report = await waitForQuiet(session, page, tracker, startUrl, (w) => (wake = w));
    return { value, report };
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onFinished);
    page.off('requestfailed', onFailed);
    page.off('framenavigated', onNavigated);
    page.off('domcontentloaded', onDomContentLoaded);
    context.off('request', onContextRequest);
    context.off('requestfailed', onContextRequestFailed);
    context.off('page', onPage);
  }
}

async function waitForQuiet(
  session: BrowserSession,
  page: Page,
  tracker: SettleTracker,
  startUrl: string,
  setWake: (wake: () => void) => void,
): Promise<SettleReport> {
  let current = page;
  let stopTracking = false;
  for (;;) {
    if (session.page !== current) {
      // The action opened a tab; it is what the caller sees next, so its load is what counts.
      current = session.page;
      tracker.switchedPage(Date.now());
      const left = tracker.limits.capMs - (Date.now() - tracker.startedAt);
      await current.waitForLoadState('domcontentloaded', { timeout: Math.max(1, left) }).catch(() => undefined);
      tracker.domContentLoaded(Date.now());
    }
    if (tracker.wantsProbe) {
      const at = Date.now();
      // Once the action's window closes, timers the page schedules are its own business.
      stopTracking ||= !tracker.windowOpen(at);
      const reading = await readProbe(current, stopTracking, PROBE_TIMEOUT_MS);
      // A new document has no probe yet: watch its DOM too, without tracking its timers.
      if (reading === null) await armProbe(current, false, PROBE_TIMEOUT_MS);
      else if (reading) tracker.probed(reading, Date.now());
    }
    const decision = tracker.decide(Date.now());
    if (decision.done) {
      if (current === page && page.url() !== startUrl) tracker.sameDocumentNavigation();
      return {
        outcome: tracker.outcome(current.url()),
        waitedMs: Date.now() - tracker.startedAt,
        ...(decision.capped ? { stillBusy: tracker.stillBusy() ?? 'the page was still changing' } : {}),
      };
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      setWake(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
