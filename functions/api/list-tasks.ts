import * as z from 'zod';
import { apiHandler } from '../../lib/http/api-handler.js';
import { pathParam } from '../../lib/http/validation.js';
import { listSessions } from '../../lib/tasks/read.js';

/** DESIGN §6: non-integer or < 1 is a 400; above 100 is capped. */
const Limit = z
  .string()
  .regex(/^\d+$/, 'limit must be a positive integer')
  .transform(Number)
  .refine((n) => n >= 1, 'limit must be at least 1')
  .transform((n) => Math.min(n, 100))
  .optional();

export const handler = apiHandler({
  name: 'list-tasks',
  auth: 'apiKey',
  handle: async ({ query, auth }, deps) => {
    const limit = pathParam(Limit, query.limit) ?? 50;
    return { statusCode: 200, body: { sessions: await listSessions(deps, auth, limit) } };
  },
});
