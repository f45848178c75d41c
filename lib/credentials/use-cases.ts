import * as z from 'zod';
import type { AuthContext } from '../auth/authenticate.js';
import type { Deps } from '../deps.js';
import { ValidationError } from '../errors.js';
import { CREDENTIAL_FIELDS, isCredentialField, platformStatus, type CredentialField, type Platform } from './model.js';

const secretValue = z
  .string({ error: 'credential values must be strings' })
  .min(1, 'credential values must not be empty')
  .max(8192, 'credential values must be at most 8192 characters');

/** PUT body: any subset of the eight fields; unknown keys are ignored. */
export const PutCredentialsBody = z.object(
  Object.fromEntries(CREDENTIAL_FIELDS.map((f) => [f, secretValue.optional()])) as Record<
    CredentialField,
    z.ZodOptional<typeof secretValue>
  >,
);

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

export async function putCredentials(
  deps: Deps,
  auth: AuthContext,
  endUserId: string,
  body: z.infer<typeof PutCredentialsBody>,
): Promise<void> {
  const supplied = CREDENTIAL_FIELDS.filter((f) => body[f] !== undefined);
  if (supplied.length === 0) {
    throw new ValidationError(`No recognized credential field; expected any of: ${CREDENTIAL_FIELDS.join(', ')}`);
  }
  const ctx = { businessId: auth.businessId, endUserId };
  const encrypted: Partial<Record<CredentialField, string>> = {};
  await Promise.all(
    supplied.map(async (f) => {
      encrypted[f] = await deps.encryptor.encrypt(body[f] as string, ctx);
    }),
  );
  await deps.endUsers.upsert(auth.businessId, endUserId, encrypted, deps.now());
}

export async function credentialStatus(
  deps: Deps,
  auth: AuthContext,
  endUserId: string,
): Promise<{ endUserId: string; platforms: Record<Platform, boolean> }> {
  const item = await deps.endUsers.get(auth.businessId, endUserId);
  const present = new Set(CREDENTIAL_FIELDS.filter((f) => item?.[f] !== undefined));
  return { endUserId, platforms: platformStatus(present) };
}

export async function deleteCredentials(
  deps: Deps,
  auth: AuthContext,
  endUserId: string,
  fields: readonly string[] | undefined,
): Promise<void> {
  const list = (fields ?? []).filter(isCredentialField);
  await deps.endUsers.clear(auth.businessId, endUserId, list, deps.now());
}

/** Decrypted credentials for the worker; never returned by the API. */
export async function loadCredentials(
  deps: Pick<Deps, 'endUsers' | 'encryptor'>,
  businessId: string,
  endUserId: string,
): Promise<Partial<Record<CredentialField, string>>> {
  const item = await deps.endUsers.get(businessId, endUserId);
  const out: Partial<Record<CredentialField, string>> = {};
  for (const f of CREDENTIAL_FIELDS) {
    const ct = item?.[f];
    if (ct) out[f] = await deps.encryptor.decrypt(ct, { businessId, endUserId });
  }
  return out;
}
