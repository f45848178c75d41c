import * as z from 'zod';
import { CREDENTIAL_FIELDS, isCredentialField, PLATFORMS, type CredentialField, type Platform } from './model.js';

/**
 * 8 KiB of UTF-8 per value: real session cookies are a few hundred bytes, browsers cap a
 * cookie at 4 KB, and the bound keeps an end-user item (eight fields plus envelope
 * overhead) far below DynamoDB's 400 KB.
 */
export const MAX_CREDENTIAL_BYTES = 8192;

const secretValue = z
  .string({ error: 'credential values must be strings' })
  .min(1, 'credential values must not be empty')
  .refine(
    (v) => Buffer.byteLength(v, 'utf8') <= MAX_CREDENTIAL_BYTES,
    `credential values must be at most ${MAX_CREDENTIAL_BYTES} bytes (UTF-8)`,
  );

/** PUT body: any subset of the eight fields (SPEC §2.4); unknown keys are ignored. */
export const PutCredentialsBody = z.object(
  Object.fromEntries(CREDENTIAL_FIELDS.map((f) => [f, secretValue.optional()])) as Record<
    CredentialField,
    z.ZodOptional<typeof secretValue>
  >,
);
export type CredentialValues = z.infer<typeof PutCredentialsBody>;

/** DELETE body: optional `fields`; omitted or empty clears every credential. */
export const DeleteCredentialsBody = z
  .object({
    fields: z
      .array(z.string({ error: 'fields must be an array of credential field names' }), {
        error: 'fields must be an array of credential field names',
      })
      .optional()
      .refine((list) => !list || list.every(isCredentialField), {
        message: `fields may only contain: ${CREDENTIAL_FIELDS.join(', ')}`,
      })
      .meta({
        items: { enum: [...CREDENTIAL_FIELDS] },
        description: 'Credential fields to clear; omitted or empty clears all of them',
      }),
  })
  .optional();

/** GET: which platforms are connected, as booleans; never a secret (SPEC §2.4). */
export const CredentialStatusSchema = z.object({
  endUserId: z.string(),
  platforms: z
    .object(Object.fromEntries(PLATFORMS.map((p) => [p, z.boolean()])) as Record<Platform, z.ZodBoolean>)
    .describe('Platform name → whether its login cookie is stored'),
});
export type CredentialStatus = z.infer<typeof CredentialStatusSchema>;
