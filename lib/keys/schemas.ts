import * as z from 'zod';

/** POST /v1/api-keys: an optional label; the body itself may be absent. */
export const CreateApiKeyBody = z
  .object({
    label: z.string({ error: 'label must be a string' }).max(200, 'label must be at most 200 characters').optional(),
  })
  .optional();

/** The 201 of POST /v1/api-keys: the only response that ever carries the secret. */
export const CreatedKeySchema = z.object({
  businessId: z.string(),
  keyId: z.string(),
  apiKey: z.string().describe('The secret (`bts_live_` + 40 base62 characters); shown once, store it now'),
  prefix: z.string().describe('The first characters of the secret, as the dashboard shows them'),
});
export type CreatedKey = z.infer<typeof CreatedKeySchema>;

/** A key as the dashboard lists it: never the secret, never its hash. */
export const KeyViewSchema = z.object({
  keyId: z.string(),
  prefix: z.string(),
  label: z.string().nullable(),
  createdAt: z.string().describe('ISO 8601'),
  lastUsedAt: z.string().nullable().describe('ISO 8601; refreshed at most once per resolution window'),
  revokedAt: z.string().nullable().describe('ISO 8601; a revoked key answers 403 everywhere'),
});
export type KeyView = z.infer<typeof KeyViewSchema>;

export const KeyListSchema = z.object({ keys: z.array(KeyViewSchema) });
