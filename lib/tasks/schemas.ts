import * as z from 'zod';
import { EndUserIdSchema, httpUrl, MAX_ID_LENGTH, nestsDeeperThan } from '../validation.js';
import { DesignResultSchema } from './design-result.js';
import { MAX_STEPS, TASK_STATUSES } from './model.js';
import { unsupportedPattern } from './schema-patterns.js';

/** How deep a caller's JSON Schema may nest. */
export const MAX_SCHEMA_DEPTH = 24;

/** POST /v1/tasks (SPEC §4.1). */
export const CreateTaskBody = z
  .object({
    endUserId: EndUserIdSchema,
    task: z
      .string({ error: (iss) => (iss.input === undefined ? 'task is required' : 'task must be a string') })
      .refine((s) => s.trim().length > 0, 'task must not be blank')
      .refine((s) => s.length <= 20_000, 'task must be at most 20000 characters')
      .optional()
      .describe('What the agent should do, in natural language; not blank. Required unless `lookup` is given'),
    lookup: z
      .strictObject(
        {
          site: z
            .string({ error: 'lookup.site must be a string' })
            .min(1, 'lookup.site must not be empty')
            .max(64)
            .describe('Site id of the knowledge graph, e.g. "npm"'),
          operation: z
            .string({ error: 'lookup.operation must be a string' })
            .min(1, 'lookup.operation must not be empty')
            .max(64)
            .describe('Operation of that site, e.g. "package"'),
          params: z
            .record(z.string(), z.unknown(), { error: 'lookup.params must be an object' })
            .refine((p) => JSON.stringify(p).length <= 4_000, 'lookup.params must be at most 4 KB')
            .refine((p) => !nestsDeeperThan(p, 4), 'lookup.params must not nest deeper than 4 levels')
            .default({})
            .describe("The operation's parameters"),
        },
        { error: 'lookup must be an object with site, operation and params' },
      )
      .optional()
      .describe(
        'Our addition to the spec: run one knowledge-graph lookup recipe directly, with no model and no browser. The task completes with the mapped fields in `result` and `structured_content`',
      ),
    sessionId: z
      .string({ error: 'sessionId must be a string' })
      .min(1, 'sessionId must not be empty')
      .max(MAX_ID_LENGTH, `sessionId must be at most ${MAX_ID_LENGTH} characters`)
      .optional()
      .describe("A previous task's sessionId, to continue that conversation; omitted starts a new session"),
    startUrl: httpUrl('startUrl').optional().describe('Page to start from; skips URL discovery'),
    schema: z
      .record(z.string(), z.unknown(), { error: 'schema must be a JSON Schema object' })
      .refine((s) => JSON.stringify(s).length <= 64_000, 'schema must be at most 64 KB')
      // Stored inside the task item (agent.schema), two levels below its root, within DynamoDB's 32.
      .refine(
        (s) => !nestsDeeperThan(s, MAX_SCHEMA_DEPTH),
        `schema must not nest deeper than ${MAX_SCHEMA_DEPTH} levels`,
      )
      .superRefine((s, ctx) => {
        const problem = unsupportedPattern(s);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional()
      .describe(
        'JSON Schema (at most 64 KB, 24 levels) of the structured output wanted; the completed task then has `structured_content`',
      ),
    maxSteps: z
      .number({ error: 'maxSteps must be a number' })
      .int('maxSteps must be an integer')
      .positive('maxSteps must be at least 1')
      .optional()
      .describe(`Step budget; default ${MAX_STEPS}, and the server uses min(maxSteps, ${MAX_STEPS})`),
    include_html_dump: z
      .boolean({ error: 'include_html_dump must be a boolean' })
      .optional()
      .describe('When true, the finished task carries `html_dump` (raw HTML of the final page)'),
  })
  .superRefine((body, ctx) => {
    if (body.lookup === undefined) {
      if (body.task === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['task'],
          message: 'task is required (or give lookup to run a recipe without a model)',
        });
      return;
    }
    // A recipe call has no page and no model: these would be silently ignored, so they are refused.
    for (const field of ['startUrl', 'schema', 'maxSteps', 'include_html_dump'] as const) {
      if (body[field] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `${field} does not apply to a lookup task (it runs a recipe, with no browser or model)`,
        });
    }
  })
  .meta({ anyOf: [{ required: ['task'] }, { required: ['lookup'] }] });
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
  .transform((n) => n ?? 50)
  .describe('Sessions to return: a positive integer, default 50; values above 100 are capped at 100');

/* ---- Response bodies. The use cases' return types are inferred from these, and the
 * OpenAPI document is generated from them, so neither can drift from the other. ---- */

export const TaskStatusSchema = z.enum(TASK_STATUSES).describe('`completed`, `failed` and `cancelled` are terminal');

const timestamp = (what: string) => z.string().describe(`${what} (ISO 8601)`);

export const StepSummarySchema = z.object({
  n: z.number().int().describe('1-based step number'),
  type: z.string().describe('The tool or phase: navigate, click, fill, extract, fast_path, done, …'),
  msg: z.string(),
  success: z.boolean(),
});

export const TaskUsageSchema = z
  .object({
    provider: z.string(),
    model: z.string(),
    modelCalls: z.number().int(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    totalTokens: z.number(),
    costUsd: z.number().nullable().describe('Null when no list price is known for the model'),
    modelMs: z.number(),
  })
  .describe('Model usage of an agent task; informational, may change');

export const TaskViewSchema = z.object({
  taskId: z.string(),
  sessionId: z.string(),
  endUserId: z.string(),
  task: z.string().describe('The prompt as submitted'),
  status: TaskStatusSchema,
  result: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .optional()
    .describe('The final answer: a string, or an object for structured results'),
  structured_content: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Present when the request had `schema`; conforms to it'),
  html_dump: z.string().optional().describe('Present when the request had `include_html_dump: true`'),
  totalSteps: z.number().int(),
  durationMs: z.number(),
  visitedUrls: z.array(z.string()).describe('Hosts navigated to, deduplicated, in order'),
  stepSummaries: z.array(StepSummarySchema),
  error: z.string().optional().describe('Present only when `status` is `failed`'),
  createdAt: timestamp('Submission time'),
  updatedAt: timestamp('Last status change'),
  design: DesignResultSchema.optional().describe('Present on design-extraction tasks'),
  usage: TaskUsageSchema.optional(),
});

/** POST /v1/tasks/{taskId}/cancel answers the task as it stands, flagged. */
export const CancelledTaskSchema = TaskViewSchema.extend({ cancelRequested: z.literal(true) });

export const SessionSummarySchema = z
  .object({
    sessionId: z.string(),
    // Described on the row: a described copy of TaskViewSchema would be inlined, not referenced.
    firstTask: TaskViewSchema,
    turnCount: z.number().int(),
    latestStatus: TaskStatusSchema,
    latestCreatedAt: timestamp('Creation time of the latest task'),
    latestUpdatedAt: timestamp('Last change of the latest task'),
  })
  .describe('One session; `firstTask` is its first task, usable as a title');

export const SessionListSchema = z.object({
  sessions: z.array(SessionSummarySchema).describe('Most recently active first'),
});

export const SessionSchema = z.object({
  sessionId: z.string(),
  tasks: z.array(TaskViewSchema).describe('Oldest first'),
});

export const SubmittedSchema = z.object({
  taskId: z.string(),
  sessionId: z.string().describe('The session passed, or a new one'),
  status: z.literal('pending'),
  createdAt: timestamp('Submission time'),
});

export type StepSummary = z.infer<typeof StepSummarySchema>;
export type TaskUsage = z.infer<typeof TaskUsageSchema>;
export type TaskView = z.infer<typeof TaskViewSchema>;
export type CancelledTask = z.infer<typeof CancelledTaskSchema>;
export type SessionSummary = z.infer<typeof SessionSummarySchema>;
export type Session = z.infer<typeof SessionSchema>;
export type Submitted = z.infer<typeof SubmittedSchema>;
