import type { AuthContext } from '../auth-context.js';
import { NotFoundError } from '../errors.js';
import type { BusinessRepository } from '../quota/quota-repository.js';
import type { ApiKeyRepository } from './api-key-repository.js';
import type { KeyActivityRepository } from './key-activity-repository.js';
import { mintApiKey } from './model.js';
import type { CreatedKey, KeyView } from './schemas.js';

export interface KeyDeps {
  apiKeys: ApiKeyRepository;
  keyActivity: KeyActivityRepository;
  businesses: BusinessRepository;
  now: () => Date;
}

export type { CreatedKey, KeyView };

/** The only moment the secret exists outside the caller: it is returned, never stored. */
export async function createApiKey(
  deps: KeyDeps,
  auth: AuthContext,
  input: { label?: string } = {},
): Promise<CreatedKey> {
  const now = deps.now();
  await deps.businesses.ensure(auth.businessId, now);
  const { secret, record } = mintApiKey(auth.businessId, input.label, now);
  await deps.apiKeys.create(record);
  return { businessId: auth.businessId, keyId: record.keyId, apiKey: secret, prefix: record.prefix };
}

/** Keys of the caller's business; lastUsedAt comes from the Activity table (or, for keys used before it existed, the key item). */
export async function listApiKeys(
  deps: Pick<KeyDeps, 'apiKeys' | 'keyActivity'>,
  auth: AuthContext,
): Promise<KeyView[]> {
  const keys = await deps.apiKeys.listByBusiness(auth.businessId);
  const used = await deps.keyActivity.lastUsed(keys.map((k) => k.keyId));
  return keys.map((k) => ({
    keyId: k.keyId,
    prefix: k.prefix,
    label: k.label ?? null,
    createdAt: k.createdAt,
    lastUsedAt: latest(used.get(k.keyId), k.lastUsedAt),
    revokedAt: k.revokedAt ?? null,
  }));
}

/** Irreversible: the key answers 403 from the next request on (SPEC §5). */
export async function revokeApiKey(
  deps: Pick<KeyDeps, 'apiKeys' | 'now'>,
  auth: AuthContext,
  input: { keyId: string },
): Promise<void> {
  if (!(await deps.apiKeys.revoke(auth.businessId, input.keyId, deps.now())))
    throw new NotFoundError('API key not found');
}

const latest = (a: string | undefined, b: string | undefined): string | null => {
  if (a === undefined || b === undefined) return a ?? b ?? null;
  return a > b ? a : b;
};
