import { AppError, ValidationError } from '../errors.js';

/**
 * Knowledge-graph failures. Every message is a sentence a model or an API caller can act
 * on. The caller's mistakes (unknown site or operation, bad params) are ValidationErrors,
 * so the API answers them with a 400 at submission; an upstream that misbehaves is an
 * exposed AppError that fails the task or the tool call with its reason.
 */
export class UnknownSiteError extends ValidationError {}

export class UnknownOperationError extends ValidationError {}

export class InvalidParamsError extends ValidationError {}

/** A data file under `sites/` is malformed; loading stops so a bad entry never ships. */
export class InvalidEntryError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { expose: true, cause });
  }
}

/** The endpoint answered with an error status, an unreadable body, or not at all. */
export class UpstreamError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { expose: true, cause });
  }
}

/** The body parsed, but a declared field is not where the recipe says it is. */
export class ResponseShapeError extends UpstreamError {}
