import {
  AppError,
  ConflictError,
  EnqueueError,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  QuotaExceededError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
} from '../errors.js';

type ErrorClass = abstract new (...args: never[]) => AppError;

/**
 * The one place domain errors become HTTP statuses. Order matters only for subclasses,
 * which must come before their parents; anything not listed (or not an AppError) is a 500.
 */
const STATUS: readonly (readonly [ErrorClass, number])[] = [
  [ValidationError, 400],
  [UnauthorizedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [MethodNotAllowedError, 405],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [QuotaExceededError, 429],
  [RateLimitedError, 429],
  [EnqueueError, 500],
  [ServiceUnavailableError, 503],
];

export function httpStatusOf(err: unknown): number {
  for (const [cls, status] of STATUS) if (err instanceof cls) return status;
  return 500;
}
