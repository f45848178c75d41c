/**
 * One error hierarchy for the whole service. `expose` marks errors whose message is safe
 * to show a caller; everything else becomes a generic 500 carrying the request id.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly expose: boolean;
  readonly extra: Record<string, unknown>;

  constructor(
    message: string,
    opts: { statusCode?: number; expose?: boolean; cause?: unknown; extra?: Record<string, unknown> } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.statusCode = opts.statusCode ?? 500;
    this.expose = opts.expose ?? this.statusCode < 500;
    this.extra = opts.extra ?? {};
  }
}

export class ValidationError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 400, cause });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Missing or invalid credentials') {
    super(message, { statusCode: 401 });
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden') {
    super(message, { statusCode: 403 });
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(message, { statusCode: 404 });
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(allowed: string[]) {
    super('Method not allowed', { statusCode: 405, extra: { allow: allowed } });
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(`Request body exceeds ${limitBytes} bytes`, { statusCode: 413 });
  }
}

export class QuotaExceededError extends AppError {
  constructor(limit: number, used: number) {
    super(`Monthly task quota of ${limit} reached`, { statusCode: 429, extra: { limit, used } });
  }
}

/** The task was written but could not be handed to the worker queue. */
export class EnqueueError extends AppError {
  constructor(message: string, cause?: unknown, extra: Record<string, unknown> = {}) {
    super(message, { statusCode: 500, expose: true, cause, extra });
  }
}

/** A conditional write lost its race (claim, ownership, state transition). */
export class ConflictError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 409, cause });
  }
}

/** Failures inside a task run; the message lands in the task's `error` field. */
export class TaskFailedError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 500, expose: true, cause });
  }
}

/** Infrastructure trouble inside a worker (storage, browser launch): worth an SQS retry. */
export class TransientWorkerError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 503, expose: false, cause });
  }
}

/** A job noticed a cancel request and stopped; the runner records `cancelled` at once. */
export class TaskCancelledError extends AppError {
  constructor(message = 'Task cancelled on request') {
    super(message, { statusCode: 409 });
  }
}
