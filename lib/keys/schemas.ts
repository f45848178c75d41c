import * as z from 'zod';

/** POST /v1/api-keys: an optional label; the body itself may be absent. */
export const CreateApiKeyBody = z
  .object({ label: z.string({ error: 'label must be a string' }).max(200, 'label must be at most 200 characters').optional() })
  .optional();
