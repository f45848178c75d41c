import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { EncryptionContext, Encryptor } from './encryptor.js';

/** The Encryptor on KMS, with the context as KMS encryption context. */
export class KmsEncryptor implements Encryptor {
  constructor(
    private readonly kms: KMSClient,
    private readonly keyId: string,
  ) {}

  async encrypt(plaintext: string, ctx: EncryptionContext): Promise<string> {
    const out = await this.kms.send(
      new EncryptCommand({
        KeyId: this.keyId,
        Plaintext: Buffer.from(plaintext, 'utf8'),
        EncryptionContext: { ...ctx },
      }),
    );
    return `kms:${Buffer.from(out.CiphertextBlob ?? new Uint8Array()).toString('base64')}`;
  }

  async decrypt(ciphertext: string, ctx: EncryptionContext): Promise<string> {
    if (!ciphertext.startsWith('kms:')) throw new Error('Ciphertext was not produced by KMS');
    const out = await this.kms.send(
      new DecryptCommand({
        CiphertextBlob: Buffer.from(ciphertext.slice(4), 'base64'),
        EncryptionContext: { ...ctx },
        KeyId: this.keyId,
      }),
    );
    return Buffer.from(out.Plaintext ?? new Uint8Array()).toString('utf8');
  }
}
