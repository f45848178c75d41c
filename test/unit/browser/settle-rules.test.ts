import { describe, expect, it } from 'vitest';
import {
  describeSettle,
  isWaitedRequestType,
  SettleTracker,
  type SettleLimits,
} from '../../../lib/browser/settle-rules.js';

/** The settle rules with explicit times: what an action waits for, and what it ignores. */
const LIMITS: SettleLimits = { capMs: 5_000, windowMs: 60, quietMs: 60, domBusyMaxMs: 1_000 };
const QUIET = { mutations: 0, timers: 0, quietForMs: 10_000 };

const tracker = (): SettleTracker => new SettleTracker(0, LIMITS);

describe('SettleTracker', () => {
  it('waits for the action itself, then only the window when nothing happened', () => {
    // Prepare
    const t = tracker();
    // Act / Assess
    expect(t.decide(10)).toEqual({ done: false });
    t.actionDone(20);
    t.probed(QUIET, 30);
    expect(t.decide(50)).toEqual({ done: false });
    expect(t.decide(80)).toEqual({ done: true, capped: false });
    expect(t.outcome('http://a/')).toEqual({ kind: 'unchanged' });
  });

  it('waits for requests the action started until they end, then reports the update', () => {
    const t = tracker();
    expect(t.requestStarted('r1', 'http://a/api', 'fetch', 5)).toBe(true);
    t.actionDone(20);
    expect(t.decide(400)).toEqual({ done: false });
    t.requestEnded('r1', 400);
    // The page renders the answer a little later: the DOM quiet starts from the last mutation.
    t.probed({ mutations: 3, timers: 0, quietForMs: 0 }, 410);
    expect(t.decide(460)).toEqual({ done: false });
    expect(t.decide(471)).toEqual({ done: true, capped: false });
    expect(t.outcome('http://a/')).toEqual({ kind: 'updated' });
  });

  it('counts a chained request that starts while the window is still open after the first one ends', () => {
    const t = tracker();
    t.requestStarted('list', 'http://a/list', 'xhr', 5);
    t.actionDone(10);
    t.requestEnded('list', 300);
    expect(t.requestStarted('detail', 'http://a/detail', 'fetch', 320)).toBe(true);
    expect(t.decide(390)).toEqual({ done: false });
  });

  it.each([
    ['image', 'img'],
    ['websocket', 'ws'],
    ['eventsource', 'sse'],
    ['ping', 'beacon'],
    ['media', 'video'],
  ])('does not wait for %s requests (%s)', (type) => {
    const t = tracker();
    expect(t.requestStarted('x', 'http://a/x', type, 5)).toBe(false);
    t.actionDone(10);
    expect(t.decide(100)).toEqual({ done: true, capped: false });
  });

  it('ignores requests that start after the window closed (a poll the page runs on its own)', () => {
    const t = tracker();
    t.actionDone(10);
    t.probed(QUIET, 20);
    expect(t.requestStarted('poll', 'http://a/poll', 'fetch', 200)).toBe(false);
    expect(t.decide(200)).toEqual({ done: true, capped: false });
  });

  it('keeps the window open while a timer the action scheduled is pending (navigation in 150 ms)', () => {
    const t = tracker();
    t.actionDone(10);
    t.probed({ mutations: 0, timers: 1, quietForMs: 0 }, 100);
    expect(t.decide(150)).toEqual({ done: false });
    expect(t.windowOpen(160)).toBe(true);
    t.probed({ mutations: 0, timers: 0, quietForMs: 0 }, 165);
    t.navigationStarted(170);
    expect(t.decide(400)).toEqual({ done: false });
    t.navigationCommitted(420);
    expect(t.decide(600)).toEqual({ done: false });
    t.domContentLoaded(640);
    expect(t.decide(690)).toEqual({ done: false });
    expect(t.decide(701)).toEqual({ done: true, capped: false });
    expect(t.outcome('http://a/next')).toEqual({ kind: 'navigated', url: 'http://a/next' });
  });

  it('follows a redirect hop as the same navigation', () => {
    const t = tracker();
    t.navigationStarted(5);
    t.actionDone(10);
    t.navigationRequestEnded(false, 50); // the 302
    t.navigationStarted(52); // the hop
    expect(t.decide(500)).toEqual({ done: false });
  });

  it('gives up on a navigation whose request failed or ended without a document', () => {
    const refused = tracker();
    refused.navigationStarted(5);
    refused.actionDone(10);
    refused.navigationRequestEnded(true, 30);
    expect(refused.decide(100)).toEqual({ done: true, capped: false });
    expect(refused.outcome('http://a/')).toEqual({ kind: 'unchanged' });

    const noContent = tracker();
    noContent.navigationStarted(5);
    noContent.actionDone(10);
    noContent.navigationRequestEnded(false, 30);
    expect(noContent.decide(60)).toEqual({ done: false });
    expect(noContent.decide(100)).toEqual({ done: true, capped: false });
  });

  it("drops the old page's pending requests when the new document commits", () => {
    const t = tracker();
    t.requestStarted('old', 'http://a/old', 'fetch', 5);
    t.navigationStarted(6);
    t.actionDone(10);
    t.navigationCommitted(100);
    t.domContentLoaded(120);
    expect(t.requestStarted('new-page-poll', 'http://a/poll', 'fetch', 125)).toBe(false);
    expect(t.decide(200)).toEqual({ done: true, capped: false });
  });

  it('waits for a new tab the action opened to load', () => {
    const t = tracker();
    t.actionDone(10);
    t.switchedPage(20);
    expect(t.decide(200)).toEqual({ done: false });
    t.domContentLoaded(300);
    expect(t.decide(400)).toEqual({ done: true, capped: false });
    expect(t.outcome('http://b/')).toEqual({ kind: 'navigated', url: 'http://b/' });
  });

  it('waits for a new tab whose first request started before the tab was announced, unless that request fails', () => {
    const t = tracker();
    expect(t.popupRequested(5)).toBe(true);
    t.actionDone(10);
    expect(t.decide(1_000)).toEqual({ done: false });
    expect(t.stillBusy()).toBe('a new tab was still opening');
    t.switchedPage(1_200);
    t.domContentLoaded(1_210);
    expect(t.decide(1_280)).toEqual({ done: true, capped: false });

    const refused = tracker();
    refused.popupRequested(5);
    refused.actionDone(10);
    refused.popupFailed(30);
    expect(refused.decide(95)).toEqual({ done: true, capped: false });
    expect(refused.outcome('http://a/')).toEqual({ kind: 'unchanged' });
  });

  it('stops waiting for a DOM that never stops mutating after domBusyMaxMs', () => {
    const t = tracker();
    t.actionDone(10);
    for (let at = 20; at < 1_060; at += 20) {
      t.probed({ mutations: at, timers: 0, quietForMs: 0 }, at);
      expect(t.decide(at)).toEqual({ done: false });
    }
    t.probed({ mutations: 2_000, timers: 0, quietForMs: 0 }, 1_200);
    expect(t.decide(1_200)).toEqual({ done: true, capped: false });
  });

  it('answers at the cap with what is still running', () => {
    const t = tracker();
    t.requestStarted('lp', 'http://a/never', 'fetch', 5);
    t.actionDone(10);
    expect(t.decide(4_999)).toEqual({ done: false });
    expect(t.decide(5_000)).toEqual({ done: true, capped: true });
    expect(t.stillBusy()).toBe('1 request(s) still running, e.g. http://a/never');
  });
});

describe('describeSettle', () => {
  it.each([
    [{ outcome: { kind: 'navigated' as const, url: 'http://a/next' }, waitedMs: 300 }, 'navigated to http://a/next'],
    [
      { outcome: { kind: 'navigated' as const, url: 'chrome-error://chromewebdata/' }, waitedMs: 90 },
      'navigation failed: the browser shows an error page (the address was refused or could not be loaded)',
    ],
    [{ outcome: { kind: 'updated' as const }, waitedMs: 300 }, 'page updated'],
    [{ outcome: { kind: 'unchanged' as const }, waitedMs: 70 }, 'no visible change'],
    [
      {
        outcome: { kind: 'updated' as const },
        waitedMs: 5_010,
        stillBusy: '1 request(s) still running, e.g. http://a/never',
      },
      'page updated (answered after 5.0 s while 1 request(s) still running, e.g. http://a/never)',
    ],
  ])('%j → %s', (report, line) => {
    expect(describeSettle(report)).toBe(line);
  });

  it('waits for data, documents and code, not for media or streams', () => {
    expect(['fetch', 'xhr', 'document', 'script'].every(isWaitedRequestType)).toBe(true);
    expect(['image', 'font', 'stylesheet', 'websocket', 'eventsource', 'ping', 'media'].some(isWaitedRequestType)).toBe(
      false,
    );
  });
});
