import * as z from 'zod';
import type { ParamValue } from './template.js';

/**
 * Recipe parameters: a small JSON-Schema-like declaration per parameter, and the zod
 * validator built from it for caller values. Numbers and booleans also arrive as strings
 * (a model or a query string writes "5"), so those are accepted when they parse exactly.
 */
export const PARAM_TYPES = ['string', 'integer', 'number', 'boolean'] as const;
export const DEFAULT_MAX_LENGTH = 500;

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

export const ParamSpecSchema = z
  .strictObject({
    type: z.enum(PARAM_TYPES),
    description: z.string().min(1),
    required: z.boolean().default(false),
    enum: z
      .array(z.union([z.string(), z.number()]))
      .min(1)
      .optional(),
    default: Scalar.optional(),
    /** The whole value must match (the pattern is anchored on both ends). */
    pattern: z.string().min(1).optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    maxLength: z.number().int().min(1).max(2_000).optional(),
    /** Strings only: `/` separates path segments instead of being encoded. */
    slashes: z.boolean().optional(),
  })
  .superRefine((p, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    const numeric = p.type === 'integer' || p.type === 'number';
    if (p.required && p.default !== undefined) problem('a required parameter cannot have a default');
    if (p.type !== 'string' && (p.pattern !== undefined || p.maxLength !== undefined || p.slashes !== undefined)) {
      problem('pattern, maxLength and slashes apply to strings only');
    }
    if (!numeric && (p.minimum !== undefined || p.maximum !== undefined))
      problem('minimum and maximum apply to integer and number only');
    if (p.minimum !== undefined && p.maximum !== undefined && p.minimum > p.maximum)
      problem('minimum is greater than maximum');
    if (p.pattern !== undefined) {
      try {
        new RegExp(p.pattern, 'u');
      } catch {
        problem(`pattern ${p.pattern} is not a valid regular expression`);
        return;
      }
    }
    if (
      p.enum?.some((v) => (p.type === 'string' ? typeof v !== 'string' : typeof v !== 'number')) ||
      (p.enum && p.type === 'boolean')
    ) {
      problem(`enum values must all be of type ${p.type}`);
      return;
    }
    if (p.default !== undefined) {
      const expected = p.type === 'integer' ? 'number' : p.type;
      const checked = valueSchema(p, false).safeParse(p.default);
      if (typeof p.default !== expected) problem(`default ${JSON.stringify(p.default)} is not of type ${p.type}`);
      else if (!checked.success)
        problem(`default ${JSON.stringify(p.default)} ${checked.error.issues[0]?.message ?? 'is invalid'}`);
    }
  });
export type ParamSpec = z.infer<typeof ParamSpecSchema>;

const NUMBER_TEXT = /^-?(?:\d+|\d*\.\d+)(?:[eE][-+]?\d+)?$/;

/** Strings that parse exactly become numbers; anything else stays as is for the type error. */
const numberLike = (v: unknown): unknown =>
  typeof v === 'string' && NUMBER_TEXT.test(v.trim()) ? Number(v.trim()) : v;
const booleanLike = (v: unknown): unknown => (v === 'true' ? true : v === 'false' ? false : v);

const typeError = (type: string) => (iss: { input: unknown }) =>
  iss.input === undefined ? 'is required' : `must be ${type === 'integer' ? 'an' : 'a'} ${type}`;

/**
 * The validator of one value. `inPath`: the value fills URL path segments, where `.` and
 * `..` would be resolved by the URL parser and climb out of the endpoint.
 */
export function valueSchema(p: ParamSpec, inPath: boolean): z.ZodType<ParamValue> {
  if (p.type === 'boolean') return z.preprocess(booleanLike, z.boolean({ error: typeError('boolean') }));
  if (p.type === 'string') {
    const max = p.maxLength ?? DEFAULT_MAX_LENGTH;
    let s: z.ZodType<string> = z
      .string({ error: typeError('string') })
      .min(1, { error: 'must not be empty' })
      .max(max, { error: `must be at most ${max} characters` });
    const pattern = p.pattern;
    if (pattern !== undefined) {
      const re = new RegExp(`^(?:${pattern})$`, 'u');
      s = s.refine((v) => re.test(v), { error: `must match the pattern ${pattern}` });
    }
    const choices = p.enum;
    if (choices) s = s.refine((v) => choices.includes(v), { error: `must be one of ${choices.join(', ')}` });
    if (inPath) {
      const segments = (v: string) => (p.slashes ? v.split('/') : [v]);
      s = s.refine((v) => segments(v).every((seg) => seg !== '.' && seg !== '..' && (!p.slashes || seg !== '')), {
        error: p.slashes ? 'must be a path without empty, "." or ".." segments' : 'cannot be "." or ".."',
      });
    }
    return s;
  }
  let n = z.number({ error: typeError(p.type) }).refine(Number.isFinite, { error: 'must be a finite number' });
  if (p.type === 'integer') n = n.refine(Number.isInteger, { error: 'must be an integer' });
  const { minimum, maximum, enum: choices } = p;
  if (minimum !== undefined) n = n.refine((v) => v >= minimum, { error: `must be at least ${minimum}` });
  if (maximum !== undefined) n = n.refine((v) => v <= maximum, { error: `must be at most ${maximum}` });
  if (choices) n = n.refine((v) => choices.includes(v), { error: `must be one of ${choices.join(', ')}` });
  return z.preprocess(numberLike, n);
}

export type ParamValues = Record<string, ParamValue | undefined>;

/** The validator of a whole params object: unknown names are refused, defaults filled in. */
export function paramsSchema(
  params: Readonly<Record<string, ParamSpec>>,
  pathNames: ReadonlySet<string>,
): z.ZodType<ParamValues> {
  const shape: Record<string, z.ZodType<ParamValue | undefined>> = {};
  for (const [name, spec] of Object.entries(params)) {
    const v = valueSchema(spec, pathNames.has(name));
    shape[name] =
      spec.default !== undefined ? v.optional().transform((x) => x ?? spec.default) : spec.required ? v : v.optional();
  }
  // A model often sends `null` for a parameter it means to leave out.
  const dropNulls = (o: unknown): unknown =>
    typeof o === 'object' && o !== null && !Array.isArray(o)
      ? Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null))
      : o;
  return z.preprocess(
    dropNulls,
    z.strictObject(shape, {
      error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'params must be an object'),
    }),
  );
}
