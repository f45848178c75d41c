/**
 * The service's one error hierarchy. Errors say what went wrong in domain terms and carry
 * no transport status: lib/http/error-status.ts maps them to HTTP, the worker maps them to
 * task outcomes, the tool layer to tool errors.
 */
export interface AppErrorOptions {
  /** The message is safe to show a caller as it is. */
  expose?: boolean;
  cause?: unknown;
  /** Extra fields of the error body (a 429 carries `limit` and `used`). */
  details?: Record<string, unknown>;
  /** Response headers the error brings with it (a 405 carries `Allow`). */
  headers?: Record<string, string>;
}

/** Base of every error the service raises on purpose; anything else is a bug and stays generic. */
export class AppError extends Error {
  readonly expose: boolean;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(message: string, opts: AppErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.expose = opts.expose ?? false;
    this.details = opts.details ?? {};
    this.headers = opts.headers ?? {};
  }
}

/** The request (body, path, query) is malformed or breaks a rule. */
export class ValidationError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { expose: true, cause });
  }
}

/** No usable credentials: missing, unknown, or of the wrong kind for the route. */
export class UnauthorizedError extends AppError {
  constructor(message = 'Missing or invalid credentials') {
    super(message, { expose: true, headers: { 'www-authenticate': 'Bearer' } });
  }
}

/** Recognised, but not allowed: a revoked key, another business's resource. */
export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden') {
    super(message, { expose: true });
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(message, { expose: true });
  }
}

/** A known path asked with a verb it does not serve. */
export class MethodNotAllowedError extends AppError {
  constructor(allowed: readonly string[]) {
    super('Method not allowed', { expose: true, headers: { allow: allowed.join(', ') } });
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(`Request body exceeds ${limitBytes} bytes`, { expose: true });
  }
}

/** The business's monthly task quota is used up. */
export class QuotaExceededError extends AppError {
  constructor(
    readonly limit: number,
    readonly used: number,
  ) {
    super(`Monthly task quota of ${limit} reached`, { expose: true, details: { limit, used } });
  }
}

/**
 * One API key sent more requests than its per-minute allowance. Its body has no `limit`
 * and `used`, so a client can tell it from the monthly quota's 429.
 */
export class RateLimitedError extends AppError {
  constructor(
    readonly limitPerMinute: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `Rate limit of ${limitPerMinute} requests per minute for this API key exceeded; retry after ${retryAfterSeconds} s`,
      {
        expose: true,
        details: { retryAfterSeconds },
        headers: { 'retry-after': String(retryAfterSeconds) },
      },
    );
  }
}

/** The deployment cannot serve this request as configured (no agent model): nothing was counted. */
export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super(message, { expose: true });
  }
}

/** The task was written but could not be handed to the worker queue (SPEC §3). */
export class EnqueueError extends AppError {
  constructor(message: string, cause?: unknown, details: Record<string, unknown> = {}) {
    super(message, { expose: true, cause, details });
  }
}

/** A state transition that no longer applies (cancelling a finished task). */
export class ConflictError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { expose: true, cause });
  }
}

/** Failures inside a task run; the message lands in the task's `error` field. */
export class TaskFailedError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { expose: true, cause });
  }
}

/** Infrastructure trouble inside a worker (storage, browser launch): worth an SQS retry. */
export class TransientWorkerError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}

/** A job noticed a cancel request and stopped; the runner records `cancelled` at once. */
export class TaskCancelledError extends AppError {
  constructor(message = 'Task cancelled on request') {
    super(message, { expose: true });
  }
}

/** The task item left `running` under a job (swept, or ended elsewhere): nothing more to write. */
export class TaskGoneError extends AppError {
  constructor() {
    super('The task is no longer running');
  }
}

/** A browser tool failed in a way the caller can act on; the message is the tool error. */
export class ToolError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { expose: true, cause });
  }
}

/** A ref no longer points at an element and could not be recovered by role and name. */
export class StaleRefError extends ToolError {
  constructor(ref: string, detail: string) {
    super(`Ref ${ref} is stale (${detail}). Take a fresh \`snapshot\` or use \`interact.find\` to get a current ref.`);
  }
}

/** The network guard refused an address (private, loopback, metadata service, …). */
export class NetworkRefusedError extends AppError {
  constructor(message: string) {
    super(message, { expose: true });
  }
}

/** A response was larger than the caller's cap; nothing of it is used. */
export class ResponseTooLargeError extends AppError {
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(`The response of ${url} exceeds ${maxBytes} bytes and was not read`, { expose: true });
  }
}

/** Playwright prefixes messages with the API called ("page.goto: ") and appends a call log. */
const API_PREFIX = /^[a-z][A-Za-z]*\.[a-z][A-Za-z]*: /;

/**
 * One line that says what went wrong, for logs, task errors and tool errors: the first
 * line of the message without Playwright's call prefix, never a stack trace.
 */
export function describeError(err: unknown, maxChars = 500): string {
  const text = err instanceof Error ? err.message : String(err);
  const first = (text.split('\n').find((l) => l.trim()) ?? text).trim().replace(API_PREFIX, '');
  return first.length > maxChars ? `${first.slice(0, maxChars)}…` : first;
}
