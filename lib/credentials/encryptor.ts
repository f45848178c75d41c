/** Who a ciphertext belongs to; bound into it so it cannot be replayed for another end-user. */
export interface EncryptionContext {
  businessId: string;
  endUserId: string;
  /**
   * The credential field a value is stored under. Bound as additional data only (not as
   * KMS encryption context), so a ciphertext cannot be moved to another field while the
   * KMS context, and the IAM condition on it, stay exactly {businessId, endUserId}.
   */
  field?: string;
}

/** Encrypts credential values and session state at rest (KMS in AWS, a local keyring otherwise). */
export interface Encryptor {
  encrypt(plaintext: string, ctx: EncryptionContext): Promise<string>;
  decrypt(ciphertext: string, ctx: EncryptionContext): Promise<string>;
}

/** The KMS encryption context of a context: who, never which field (see EncryptionContext.field). */
export const kmsContext = (ctx: EncryptionContext): Record<string, string> => ({
  businessId: ctx.businessId,
  endUserId: ctx.endUserId,
});
