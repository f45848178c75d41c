import { ConnectionError, RateLimitError, ServerError } from './errors.js';

/** How GETs are retried: up to `maxRetries` more attempts, exponential delays from `baseDelayMs` to `maxDelayMs`. */
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8000 };

/** A Retry-After longer than this is not waited out: the error goes to the caller instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);

/**
 * Only reads are retried: a POST, PUT or DELETE that failed on the way back may have been
 * applied, and repeating it could submit (and pay for) a task twice.
 */
export function isRetryable(method: string, error: unknown): boolean {
  if (method.toUpperCase() !== 'GET') return false;
  if (error instanceof ConnectionError || error instanceof RateLimitError) return true;
  return error instanceof ServerError && RETRYABLE_STATUS.has(error.status);
}

/**
 * Delay before retry number `attempt` (0-based): exponential with equal jitter, so
 * clients that failed together do not come back together; Retry-After wins when sent.
 */
export function retryDelay(
  attempt: number,
  policy: RetryPolicy,
  error: unknown,
  random: () => number = Math.random,
): number | undefined {
  if (error instanceof RateLimitError && error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= MAX_RETRY_AFTER_MS ? error.retryAfterMs : undefined;
  }
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(cap / 2 + (random() * cap) / 2);
}

/** Poll pacing: from `initialMs`, growing by half each poll up to `maxMs` (the 2 s the API recommends), ±10 % jitter. */
export interface PollPacing {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_POLL: PollPacing = { initialMs: 500, maxMs: 2000 };

export function pollDelay(poll: number, pacing: PollPacing, random: () => number = Math.random): number {
  const base = Math.min(pacing.maxMs, pacing.initialMs * 1.5 ** poll);
  return Math.round(base * (0.9 + random() * 0.2));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
