import type { TaskView } from './types.gen.js';

/** Base of every error this client throws. */
export class BrowserTaskError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The API answered with an error status; `error` is its message, `requestId` its x-request-id. */
export class APIError extends BrowserTaskError {
  readonly status: number;
  readonly error: string;
  readonly requestId: string | undefined;
  /** The parsed error body, with any fields beyond `error`. */
  readonly body: Record<string, unknown>;
  readonly headers: Headers;

  constructor(status: number, body: Record<string, unknown>, headers: Headers) {
    // API Gateway's own answers (throttling, oversized payloads) say `message`, not `error`.
    const error =
      typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : `HTTP ${status}`;
    const requestId = headers.get('x-request-id') ?? (typeof body.requestId === 'string' ? body.requestId : undefined);
    super(`${status} ${error}${requestId ? ` (request id ${requestId})` : ''}`);
    this.status = status;
    this.error = error;
    this.requestId = requestId;
    this.body = body;
    this.headers = headers;
  }
}

/** 400: the request broke a rule; fix it before sending it again. */
export class BadRequestError extends APIError {}
/** 401: no usable credentials, or the wrong kind for the route (an API key on /v1/api-keys). */
export class AuthenticationError extends APIError {}
/** 403: a revoked key, or a resource of another business. */
export class PermissionDeniedError extends APIError {}
/** 404: unknown task, session, key or route. */
export class NotFoundError extends APIError {}
/** 405: the path exists but not with this verb. */
export class MethodNotAllowedError extends APIError {}
/** 409: the task already finished (cancel). */
export class ConflictError extends APIError {}
/** 413: the body is over 1 MiB. */
export class PayloadTooLargeError extends APIError {}

/** 429 with `limit`/`used`: the business's monthly task quota is used up; retrying will not help this month. */
export class QuotaExceededError extends APIError {
  readonly limit: number;
  readonly used: number;

  constructor(status: number, body: Record<string, unknown>, headers: Headers) {
    super(status, body, headers);
    this.limit = Number(body.limit);
    this.used = Number(body.used);
  }
}

/** 429 without quota fields: too many requests; `retryAfterMs` comes from Retry-After when sent. */
export class RateLimitError extends APIError {
  readonly retryAfterMs: number | undefined;

  constructor(status: number, body: Record<string, unknown>, headers: Headers) {
    super(status, body, headers);
    this.retryAfterMs = parseRetryAfter(headers.get('retry-after'));
  }
}

/** 5xx: transient; `taskId` is set when POST /v1/tasks kept the task as failed (enqueue failure). */
export class ServerError extends APIError {
  readonly taskId: string | undefined;

  constructor(status: number, body: Record<string, unknown>, headers: Headers) {
    super(status, body, headers);
    this.taskId = typeof body.taskId === 'string' ? body.taskId : undefined;
  }
}

/** The request never got an HTTP answer: DNS, refused connection, reset, or the per-request timeout. */
export class ConnectionError extends BrowserTaskError {}

/** `run()` gave up waiting; the task goes on on the server (cancel it if it should not). */
export class RunTimeoutError extends BrowserTaskError {
  constructor(
    readonly taskId: string,
    /** The last state read, or undefined when no read finished in time. */
    readonly task: TaskView | undefined,
    readonly timeoutMs: number,
  ) {
    super(`Task ${taskId} still ${task?.status ?? 'unread'} after ${timeoutMs} ms`);
  }
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

type APIErrorClass = new (status: number, body: Record<string, unknown>, headers: Headers) => APIError;

const BY_STATUS: Record<number, APIErrorClass> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  409: ConflictError,
  413: PayloadTooLargeError,
};

/** The typed error for an error response; a body that is not a JSON object still yields one. */
export function errorFromResponse(status: number, text: string, headers: Headers): APIError {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's HTML page): keep the start of it as the message.
    if (text.trim()) body = { error: text.trim().slice(0, 200) };
  }
  if (status === 429) {
    const quota = typeof body.limit === 'number' && typeof body.used === 'number';
    return quota ? new QuotaExceededError(status, body, headers) : new RateLimitError(status, body, headers);
  }
  if (status >= 500) return new ServerError(status, body, headers);
  const cls = BY_STATUS[status] ?? APIError;
  return new cls(status, body, headers);
}
