import { AppError } from '../errors.js';

/**
 * Knowledge-graph failures. Every message is a sentence a model or an API caller can act
 * on, so all of them are exposed: the caller's mistakes are 400s and an upstream that
 * misbehaves is a 502, telling the two apart for retries and dashboards.
 */
export class KnowledgeError extends AppError {
  constructor(message: string, opts: { statusCode?: number; cause?: unknown } = {}) {
    super(message, { statusCode: opts.statusCode ?? 400, expose: true, cause: opts.cause });
  }
}

/** A data file under `sites/` is malformed; loading stops so a bad entry never ships. */
export class InvalidEntryError extends KnowledgeError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 500, cause });
  }
}

export class UnknownSiteError extends KnowledgeError {}

export class UnknownOperationError extends KnowledgeError {}

export class InvalidParamsError extends KnowledgeError {}

/** The endpoint answered with an error status, an unreadable body, or not at all. */
export class UpstreamError extends KnowledgeError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 502, cause });
  }
}

/** The body parsed, but a declared field is not where the recipe says it is. */
export class ResponseShapeError extends KnowledgeError {
  constructor(message: string) {
    super(message, { statusCode: 502 });
  }
}
