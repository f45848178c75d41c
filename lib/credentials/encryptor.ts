/** Who a ciphertext belongs to; bound into it so it cannot be replayed for another end-user. */
export interface EncryptionContext {
  businessId: string;
  endUserId: string;
}

/** Encrypts credential values and session state at rest (KMS in AWS, a local keyring otherwise). */
export interface Encryptor {
  encrypt(plaintext: string, ctx: EncryptionContext): Promise<string>;
  decrypt(ciphertext: string, ctx: EncryptionContext): Promise<string>;
}
