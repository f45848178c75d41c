import * as z from 'zod';
import { EndUserIdSchema, httpUrl, MAX_ID_LENGTH, nestsDeeperThan } from '../validation.js';
import { MAX_STEPS } from './model.js';
import { unsupportedPattern } from './schema-patterns.js';

/** How deep a caller's JSON Schema may nest. */
export const MAX_SCHEMA_DEPTH = 24;

/** POST /v1/tasks (SPEC §4.1). */
export const CreateTaskBody = z.object({
  endUserId: EndUserIdSchema,
  task: z
    .string({ error: (iss) => (iss.input === undefined ? 'task is required' : 'task must be a string') })
    .refine((s) => s.trim().length > 0, 'task must not be blank')
    .refine((s) => s.length <= 20_000, 'task must be at most 20000 characters'),
  sessionId: z
    .string({ error: 'sessionId must be a string' })
    .min(1, 'sessionId must not be empty')
    .max(MAX_ID_LENGTH, `sessionId must be at most ${MAX_ID_LENGTH} characters`)
    .optional(),
  startUrl: httpUrl('startUrl').optional(),
  schema: z
    .record(z.string(), z.unknown(), { error: 'schema must be a JSON Schema object' })
    .refine((s) => JSON.stringify(s).length <= 64_000, 'schema must be at most 64 KB')
    // Stored inside the task item (agent.schema), two levels below its root, within DynamoDB's 32.
    .refine((s) => !nestsDeeperThan(s, MAX_SCHEMA_DEPTH), `schema must not nest deeper than ${MAX_SCHEMA_DEPTH} levels`)
    .superRefine((s, ctx) => {
      const problem = unsupportedPattern(s);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  maxSteps: z
    .number({ error: 'maxSteps must be a number' })
    .int('maxSteps must be an integer')
    .positive('maxSteps must be at least 1')
    .optional(),
  include_html_dump: z.boolean({ error: 'include_html_dump must be a boolean' }).optional(),
});
export type CreateTaskInput = z.infer<typeof CreateTaskBody>;

/** SPEC §8: the server uses min(maxSteps, 25). */
export const effectiveMaxSteps = (requested: number | undefined): number => Math.min(requested ?? MAX_STEPS, MAX_STEPS);

/** GET /v1/tasks?limit= (DESIGN §6): non-integer or < 1 is a 400; above 100 is capped; default 50. */
export const ListLimitQuery = z
  .string()
  .regex(/^\d+$/, 'limit must be a positive integer')
  .transform(Number)
  .refine((n) => n >= 1, 'limit must be at least 1')
  .transform((n) => Math.min(n, 100))
  .optional()
  .transform((n) => n ?? 50);
