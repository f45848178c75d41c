import * as z from 'zod';
import { apiHandler } from '../../lib/http/api-handler.js';
import { createApiKey } from '../../lib/keys/use-cases.js';

const Body = z
  .object({ label: z.string({ error: 'label must be a string' }).max(200, 'label must be at most 200 characters').optional() })
  .optional();

export const handler = apiHandler({
  name: 'create-api-key',
  auth: 'dashboard',
  body: Body,
  bodyOptional: true,
  handle: async ({ body, auth }, deps) => ({
    statusCode: 201,
    body: await createApiKey(deps, auth.businessId, body?.label),
  }),
});
