import * as z from 'zod';
import { CREDENTIAL_FIELDS, isCredentialField, type CredentialField } from './model.js';

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
      }),
  })
  .optional();
