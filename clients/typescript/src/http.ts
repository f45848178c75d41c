import { APIError, BrowserTaskError, ConnectionError, errorFromResponse } from './errors.js';
import { DEFAULT_RETRY, isRetryable, retryDelay, sleep, type RetryPolicy } from './retry.js';

export type Credential = 'apiKey' | 'dashboard';

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  dashboardToken?: string;
  fetch?: typeof fetch;
  /** Per attempt; a request that takes longer is a ConnectionError (and retried if it is a GET). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  credential: Credential;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

/** Marks our own per-attempt timeout, so it is told apart from the caller's abort. */
class AttemptTimeout extends Error {}

/** HTTP with the API's conventions: bearer auth, JSON both ways, typed errors, retried reads. */
export class Transport {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;

  constructor(private readonly options: TransportOptions) {
    if (!options.baseUrl) throw new BrowserTaskError('baseUrl is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // Bound to globalThis: some runtimes refuse a fetch called as a method of another object.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  async request<T>(call: Call): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt<T>(call);
      } catch (err) {
        if (call.signal?.aborted || attempt >= this.retry.maxRetries || !isRetryable(call.method, err)) throw err;
        const delay = retryDelay(attempt, this.retry, err);
        if (delay === undefined) throw err;
        await sleep(delay, call.signal);
      }
    }
  }

  private headers(call: Call): Record<string, string> {
    const token = call.credential === 'apiKey' ? this.options.apiKey : this.options.dashboardToken;
    if (!token) {
      throw new BrowserTaskError(
        call.credential === 'apiKey' ? 'This call needs an apiKey' : 'API key management needs a dashboardToken',
      );
    }
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    return headers;
  }

  private url(call: Call): string {
    const url = new URL(this.baseUrl + call.path);
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  private async attempt<T>(call: Call): Promise<T> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(call.signal?.reason);
    call.signal?.addEventListener('abort', onAbort, { once: true });
    if (call.signal?.aborted) controller.abort(call.signal.reason);
    const timer = setTimeout(() => controller.abort(new AttemptTimeout()), this.timeoutMs);
    try {
      let res: Response;
      try {
        res = await this.fetchImpl(this.url(call), {
          method: call.method,
          headers: this.headers(call),
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          signal: controller.signal,
        });
      } catch (err) {
        throw this.transportFailure(call, err, controller.signal);
      }
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        throw this.transportFailure(call, err, controller.signal);
      }
      if (!res.ok) throw errorFromResponse(res.status, text, res.headers);
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new APIError(res.status, { error: `Response is not JSON: ${text.slice(0, 200)}` }, res.headers);
      }
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    }
  }

  private transportFailure(call: Call, err: unknown, signal: AbortSignal): unknown {
    if (err instanceof BrowserTaskError) return err;
    if (call.signal?.aborted) return call.signal.reason;
    const what = `${call.method} ${call.path}`;
    if (signal.reason instanceof AttemptTimeout)
      return new ConnectionError(`${what} timed out after ${this.timeoutMs} ms`, { cause: err });
    return new ConnectionError(`${what} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
