import { AppError } from '../errors.js';

/** A tool failed in a way the caller can act on; the message is shown as the tool error. */
export class ToolError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 400, expose: true, cause });
  }
}

/** A ref no longer points at an element and could not be recovered by role and name. */
export class StaleRefError extends ToolError {
  constructor(ref: string, detail: string) {
    super(`Ref ${ref} is stale (${detail}). Take a fresh \`snapshot\` or use \`interact.find\` to get a current ref.`);
  }
}
