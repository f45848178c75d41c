import type { ApiKeyRecord } from './model.js';

/** ApiKeys table: one item per key, addressed by the SHA-256 of its secret. */
export interface ApiKeyRepository {
  create(record: ApiKeyRecord): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  listByBusiness(businessId: string): Promise<ApiKeyRecord[]>;
  /** Returns false when the business has no such key. Revoking twice keeps the first time. */
  revoke(businessId: string, keyId: string, now: Date): Promise<boolean>;
  /** Writes lastUsedAt only if the stored value is older than `staleBefore`. */
  touchLastUsed(keyHash: string, now: Date, staleBefore: Date): Promise<void>;
}
