import * as z from 'zod';
import { ValidationError } from '../errors.js';

/** One readable sentence from a zod error: the first issue, prefixed with its field. */
export function formatZodError(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'Invalid request';
  const path = issue.path.join('.');
  return path && !issue.message.startsWith(path) ? `${path}: ${issue.message}` : issue.message;
}

/** SPEC §8: at most 256 characters, everywhere an endUserId is taken. */
export const EndUserIdSchema = z
  .string({ error: (iss) => (iss.input === undefined ? 'endUserId is required' : 'endUserId must be a string') })
  .min(1, 'endUserId must not be empty')
  .max(256, 'endUserId must be at most 256 characters');

/** Path parameters arrive URL-decoded; still enforce the same rules as bodies. */
export function pathParam<T extends z.ZodType>(schema: T, value: string | undefined): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ValidationError(formatZodError(r.error));
  return r.data;
}
