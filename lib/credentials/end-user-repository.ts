import type { CredentialField } from './model.js';

/** One item per (business, end-user); one ciphertext attribute per credential field. */
export interface EndUserItem extends Partial<Record<CredentialField, string>> {
  businessId: string;
  endUserId: string;
  createdAt: string;
  updatedAt: string;
}

export interface EndUserRepository {
  get(businessId: string, endUserId: string): Promise<EndUserItem | undefined>;
  /** Sets the given encrypted fields; others keep their values. */
  upsert(
    businessId: string,
    endUserId: string,
    encrypted: Partial<Record<CredentialField, string>>,
    now: Date,
  ): Promise<void>;
  /** Removes the given fields; the end-user item itself stays. */
  clear(businessId: string, endUserId: string, fields: readonly CredentialField[], now: Date): Promise<void>;
}
