import type { Deps } from '../deps.js';
import { NotFoundError } from '../errors.js';
import { mintApiKey } from './api-key.js';

export interface CreatedKey {
  businessId: string;
  keyId: string;
  apiKey: string;
  prefix: string;
}

/** The only moment the secret exists outside the caller: it is returned, never stored. */
export async function createApiKey(deps: Pick<Deps, 'apiKeys' | 'businesses' | 'now'>, businessId: string, label?: string): Promise<CreatedKey> {
  const now = deps.now();
  await deps.businesses.ensure(businessId, now);
  const { secret, record } = mintApiKey(businessId, label, now);
  await deps.apiKeys.create(record);
  return { businessId, keyId: record.keyId, apiKey: secret, prefix: record.prefix };
}

export interface KeyView {
  keyId: string;
  prefix: string;
  label: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export async function listApiKeys(deps: Pick<Deps, 'apiKeys'>, businessId: string): Promise<KeyView[]> {
  const keys = await deps.apiKeys.listByBusiness(businessId);
  return keys.map((k) => ({
    keyId: k.keyId,
    prefix: k.prefix,
    label: k.label ?? null,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt ?? null,
    revokedAt: k.revokedAt ?? null,
  }));
}

export async function revokeApiKey(deps: Pick<Deps, 'apiKeys' | 'now'>, businessId: string, keyId: string): Promise<void> {
  if (!(await deps.apiKeys.revoke(businessId, keyId, deps.now()))) throw new NotFoundError('API key not found');
}
