import { describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  DEFAULT_POLL,
  DEFAULT_RETRY,
  errorFromResponse,
  isRetryable,
  MethodNotAllowedError,
  NotFoundError,
  parseRetryAfter,
  PayloadTooLargeError,
  PermissionDeniedError,
  pollDelay,
  QuotaExceededError,
  RateLimitError,
  retryDelay,
  ServerError,
} from '../../../clients/typescript/src/index.js';

const headers = (h: Record<string, string> = {}) => new Headers({ 'x-request-id': 'req-1', ...h });
const err = (status: number, body: unknown, h: Record<string, string> = {}) =>
  errorFromResponse(status, JSON.stringify(body), headers(h));

describe('error mapping', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [405, MethodNotAllowedError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
    [500, ServerError],
    [503, ServerError],
    [418, APIError],
  ])('%i → %o, carrying status, message and request id', (status, cls) => {
    const e = err(status, { error: 'what went wrong' });
    expect(e).toBeInstanceOf(cls);
    expect(e).toMatchObject({ status, error: 'what went wrong', requestId: 'req-1' });
    expect(e.message).toBe(`${status} what went wrong (request id req-1)`);
  });

  it('tells a quota 429 (limit/used) from a rate-limit 429 (Retry-After)', () => {
    const quota = err(429, { error: 'Monthly task quota of 15 reached', limit: 15, used: 15 });
    expect(quota).toBeInstanceOf(QuotaExceededError);
    expect(quota).toMatchObject({ limit: 15, used: 15 });
    const rate = err(429, { message: 'Too Many Requests' }, { 'retry-after': '3' });
    expect(rate.error).toBe('Too Many Requests');
    expect(rate).toBeInstanceOf(RateLimitError);
    expect((rate as RateLimitError).retryAfterMs).toBe(3000);
  });

  it('keeps the taskId of an enqueue failure and falls back to the body’s requestId', () => {
    const e = errorFromResponse(
      500,
      JSON.stringify({ error: 'enqueue failed', taskId: 't-1', requestId: 'body-req' }),
      new Headers(),
    );
    expect(e).toMatchObject({ taskId: 't-1', requestId: 'body-req' });
  });

  it('turns a non-JSON error page into a readable message', () => {
    const e = errorFromResponse(502, '<html>Bad Gateway</html>', new Headers());
    expect(e).toBeInstanceOf(ServerError);
    expect(e.error).toBe('<html>Bad Gateway</html>');
    expect(errorFromResponse(504, '', new Headers()).error).toBe('HTTP 504');
  });
});

describe('Retry-After', () => {
  it.each([
    ['2', 2000],
    ['0.5', 500],
    ['', undefined],
    ['soon', undefined],
  ])('%j → %s ms', (value, ms) => {
    expect(parseRetryAfter(value)).toBe(ms);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });
});

describe('retry policy', () => {
  const server = err(503, { error: 'unavailable' });
  const notImplemented = err(501, { error: 'no' });
  const network = new ConnectionError('refused');
  const rate = err(429, { error: 'slow down' });
  const quota = err(429, { error: 'quota', limit: 1, used: 1 });

  it.each([
    ['GET', server, true],
    ['GET', network, true],
    ['GET', rate, true],
    ['GET', notImplemented, false],
    ['GET', quota, false],
    ['GET', err(404, { error: 'x' }), false],
    ['POST', server, false],
    ['POST', network, false],
    ['PUT', rate, false],
    ['DELETE', server, false],
  ])('%s after %o → retry %s', (method, error, expected) => {
    expect(isRetryable(method, error)).toBe(expected);
  });

  it('backs off exponentially with equal jitter, capped', () => {
    const low = () => 0;
    const high = () => 1;
    expect([0, 1, 2, 3, 4, 10].map((a) => retryDelay(a, DEFAULT_RETRY, server, low))).toEqual([
      250, 500, 1000, 2000, 4000, 4000,
    ]);
    expect([0, 1, 2, 3, 4, 10].map((a) => retryDelay(a, DEFAULT_RETRY, server, high))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
  });

  it('honours Retry-After, and gives up on one over a minute', () => {
    expect(retryDelay(0, DEFAULT_RETRY, err(429, { error: 'x' }, { 'retry-after': '2' }))).toBe(2000);
    expect(retryDelay(0, DEFAULT_RETRY, err(429, { error: 'x' }, { 'retry-after': '120' }))).toBeUndefined();
  });
});

describe('poll pacing', () => {
  it('grows from 0.5 s to the recommended 2 s, jittered by ±10 %', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 4, 20].map((n) => pollDelay(n, DEFAULT_POLL, mid))).toEqual([500, 750, 1125, 1688, 2000, 2000]);
    expect(pollDelay(20, DEFAULT_POLL, () => 0)).toBe(1800);
    expect(pollDelay(20, DEFAULT_POLL, () => 1)).toBe(2200);
  });
});
