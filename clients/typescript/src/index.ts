export { BrowserTaskClient, ApiKeys, Credentials, Design, Sessions, Tasks } from './client.js';
export type { ClientOptions, DesignOptions, RequestOptions, RunOptions } from './client.js';
export {
  APIError,
  AuthenticationError,
  BadRequestError,
  BrowserTaskError,
  ConflictError,
  ConnectionError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitError,
  RunTimeoutError,
  ServerError,
  errorFromResponse,
  parseRetryAfter,
} from './errors.js';
export { DEFAULT_POLL, DEFAULT_RETRY, isRetryable, pollDelay, retryDelay } from './retry.js';
export type { PollPacing, RetryPolicy } from './retry.js';
export { TERMINAL_STATUSES, waitForTask } from './poll.js';
export type { WaitOptions } from './poll.js';
export type * from './types.gen.js';
