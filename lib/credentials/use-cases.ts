import type { AuthContext } from '../auth-context.js';
import { ValidationError } from '../errors.js';
import type { Encryptor } from './encryptor.js';
import type { EndUserRepository } from './end-user-repository.js';
import { CREDENTIAL_FIELDS, isCredentialField, platformStatus, type CredentialField } from './model.js';
import type { CredentialStatus, CredentialValues } from './schemas.js';

export interface CredentialDeps {
  endUsers: EndUserRepository;
  encryptor: Encryptor;
  now: () => Date;
}

/** PUT: an idempotent upsert; platforms not mentioned keep their values. */
export async function putCredentials(
  deps: CredentialDeps,
  auth: AuthContext,
  input: { endUserId: string; values: CredentialValues },
): Promise<void> {
  const supplied = CREDENTIAL_FIELDS.filter((f) => input.values[f] !== undefined);
  if (supplied.length === 0) {
    throw new ValidationError(`No recognized credential field; expected any of: ${CREDENTIAL_FIELDS.join(', ')}`);
  }
  const ctx = { businessId: auth.businessId, endUserId: input.endUserId };
  const encrypted: Partial<Record<CredentialField, string>> = {};
  await Promise.all(
    supplied.map(async (f) => {
      encrypted[f] = await deps.encryptor.encrypt(input.values[f] as string, { ...ctx, field: f });
    }),
  );
  await deps.endUsers.upsert(auth.businessId, input.endUserId, encrypted, deps.now());
}

/** GET: which platforms are connected, as booleans only. */
export async function credentialStatus(
  deps: Pick<CredentialDeps, 'endUsers'>,
  auth: AuthContext,
  input: { endUserId: string },
): Promise<CredentialStatus> {
  const item = await deps.endUsers.get(auth.businessId, input.endUserId);
  const present = new Set(CREDENTIAL_FIELDS.filter((f) => item?.[f] !== undefined));
  return { endUserId: input.endUserId, platforms: platformStatus(present) };
}

/** DELETE: the listed fields, or all of them; the end-user record itself stays. */
export async function deleteCredentials(
  deps: Pick<CredentialDeps, 'endUsers' | 'now'>,
  auth: AuthContext,
  input: { endUserId: string; fields?: readonly string[] },
): Promise<void> {
  const list = (input.fields ?? []).filter(isCredentialField);
  await deps.endUsers.clear(auth.businessId, input.endUserId, list, deps.now());
}

/** Decrypted credentials for the worker; never returned by the API. */
export async function loadCredentials(
  deps: Pick<CredentialDeps, 'endUsers' | 'encryptor'>,
  businessId: string,
  endUserId: string,
): Promise<Partial<Record<CredentialField, string>>> {
  const item = await deps.endUsers.get(businessId, endUserId);
  const out: Partial<Record<CredentialField, string>> = {};
  for (const f of CREDENTIAL_FIELDS) {
    const ct = item?.[f];
    if (ct) out[f] = await deps.encryptor.decrypt(ct, { businessId, endUserId, field: f });
  }
  return out;
}
