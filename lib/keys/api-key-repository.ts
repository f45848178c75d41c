import type { ApiKeyRecord } from './model.js';

/**
 * ApiKeys table: one item per key, addressed by the SHA-256 of its secret, plus one
 * pointer item per key id (`id#<keyId>` → the hash) so revocation never depends on the
 * eventually consistent byBusiness index. Only key management writes it.
 */
export interface ApiKeyRepository {
  create(record: ApiKeyRecord): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  listByBusiness(businessId: string): Promise<ApiKeyRecord[]>;
  /** Returns false when the business has no such key. Revoking twice keeps the first time. */
  revoke(businessId: string, keyId: string, now: Date): Promise<boolean>;
}
