import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { TaskFailedError } from '../errors.js';
import { linearRegExp } from '../tasks/schema-patterns.js';

/**
 * The caller's JSON Schema (draft 2020-12, with $ref/$defs/anyOf) as a validator. In
 * 2020-12 `format` is an annotation unless a vocabulary asks for assertion, so formats
 * are accepted and not checked (no ajv-formats needed); unknown keywords are tolerated
 * because callers paste schemas from many generators.
 */
export interface SchemaCheck {
  ok: boolean;
  /** Human-readable problems, for the repair prompt and the failure message. */
  errors: string[];
}

export type StructuredValidator = (value: unknown) => SchemaCheck;

export const SCHEMA_MISMATCH = 'The agent output did not match the schema';

function describe(e: ErrorObject): string {
  const at = e.instancePath || '(root)';
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
      : '';
  return `${at} ${e.message ?? e.keyword}${extra}`;
}

export function compileSchema(schema: Record<string, unknown>): StructuredValidator {
  // Patterns run on RE2 (linear time): a caller's schema cannot stall the worker (issue 13, finding 7).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, code: { regExp: linearRegExp } });
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw new TaskFailedError(`The request's schema is not a valid JSON Schema: ${(err as Error).message}`, err);
  }
  return (value) => {
    if (validate(value)) return { ok: true, errors: [] };
    return { ok: false, errors: (validate.errors ?? []).slice(0, 20).map(describe) };
  };
}

/** The structured value from a `done` call: `data`, else an answer that is itself JSON. */
export function structuredCandidate(answer: string, data: unknown): unknown {
  if (data !== undefined) return data;
  try {
    return JSON.parse(answer) as unknown;
  } catch {
    return undefined;
  }
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
