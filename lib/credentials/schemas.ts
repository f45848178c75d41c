import * as z from 'zod';
import { CREDENTIAL_FIELDS, isCredentialField, PLATFORMS, type CredentialField, type Platform } from './model.js';

const secretValue = z
  .string({ error: 'credential values must be strings' })
  .min(1, 'credential values must not be empty')
  .max(8192, 'credential values must be at most 8192 characters');

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
