import * as z from 'zod';

/**
 * Bodies that belong to HTTP itself rather than a capability: every error is
 * `{ error }` (SPEC §7), a few carry more, and acknowledgements are `{ ok: true }`.
 */
export const ErrorSchema = z.object({ error: z.string().describe('What went wrong, for a human') });

/** 429 of a submission: the business's monthly task quota is used up. */
export const QuotaErrorSchema = ErrorSchema.extend({
  limit: z.number().int().describe('Monthly task quota of the business'),
  used: z.number().int().describe('Tasks counted this month'),
});

/** 429 of the per-key rate limit (BTS_RATE_LIMIT_PER_MINUTE): no `limit`/`used`, so it cannot be taken for the quota. */
export const RateLimitErrorSchema = ErrorSchema.extend({
  retryAfterSeconds: z.number().int().describe('Also in the Retry-After header'),
});

/** 5xx: the request id to quote to support; `taskId` when a task record was kept (enqueue failure of POST /v1/tasks). */
export const ServerErrorSchema = ErrorSchema.extend({
  requestId: z.string().describe('Also in the x-request-id header'),
  taskId: z.string().optional().describe('The task kept as failed when it could not be enqueued'),
});

export const OkSchema = z.object({ ok: z.literal(true) });
