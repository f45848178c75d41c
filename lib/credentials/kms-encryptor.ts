import { DecryptCommand, GenerateDataKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import { contextAad, decodeSealed, encodeSealed, open, seal } from './aes-gcm.js';
import { ExpiringCache } from './data-key-cache.js';
import { kmsContext, type EncryptionContext, type Encryptor } from './encryptor.js';

interface DataKey {
  plaintext: Buffer;
  /** The data key encrypted under the KMS key, stored with every ciphertext it sealed. */
  encrypted: string;
}

export interface KmsEncryptorOptions {
  /** How long a data key is reused; a few minutes bounds both KMS calls and key exposure. */
  dataKeyTtlMs?: number;
  maxCachedKeys?: number;
  now?: () => number;
}

/**
 * Envelope encryption on KMS. KMS `Encrypt` takes at most 4096 bytes, and session browser
 * state is routinely larger, so each value is sealed with AES-256-GCM under a data key from
 * `GenerateDataKey`; the data key travels encrypted beside it. {businessId, endUserId} is
 * the KMS encryption context of the data key and, with the credential field, the GCM
 * additional data of the value.
 *
 * Formats: `kms2:<encrypted data key>:<iv>:<tag>:<body>` (written now) and
 * `kms:<KMS ciphertext>` (direct KMS Encrypt, written before envelopes; still read).
 */
export class KmsEncryptor implements Encryptor {
  private readonly keys: ExpiringCache<DataKey>;
  private readonly opened: ExpiringCache<Buffer>;

  constructor(
    private readonly kms: KMSClient,
    private readonly keyId: string,
    opts: KmsEncryptorOptions = {},
  ) {
    const ttl = opts.dataKeyTtlMs ?? 5 * 60_000;
    const max = opts.maxCachedKeys ?? 256;
    this.keys = new ExpiringCache(ttl, max, opts.now);
    this.opened = new ExpiringCache(ttl, max, opts.now);
  }

  async encrypt(plaintext: string, ctx: EncryptionContext): Promise<string> {
    const key = await this.dataKeyFor(ctx);
    return `kms2:${key.encrypted}:${encodeSealed(seal(key.plaintext, plaintext, contextAad(ctx, { withField: true })))}`;
  }

  async decrypt(ciphertext: string, ctx: EncryptionContext): Promise<string> {
    if (ciphertext.startsWith('kms:')) return this.decryptDirect(ciphertext.slice(4), ctx);
    if (!ciphertext.startsWith('kms2:')) throw new Error('Ciphertext was not produced by KMS');
    const [encrypted, ...rest] = ciphertext.slice(5).split(':');
    if (!encrypted) throw new Error('Malformed KMS envelope');
    const plainKey = await this.openDataKey(encrypted, ctx);
    return open(plainKey, decodeSealed(rest), contextAad(ctx, { withField: true }));
  }

  private async dataKeyFor(ctx: EncryptionContext): Promise<DataKey> {
    const cacheKey = JSON.stringify(kmsContext(ctx));
    const cached = this.keys.get(cacheKey);
    if (cached) return cached;
    const out = await this.kms.send(
      new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: kmsContext(ctx) }),
    );
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
    const key = {
      plaintext: Buffer.from(out.Plaintext),
      encrypted: Buffer.from(out.CiphertextBlob).toString('base64'),
    };
    this.keys.set(cacheKey, key);
    return key;
  }

  private async openDataKey(encrypted: string, ctx: EncryptionContext): Promise<Buffer> {
    // The context is part of the cache key: a key opened for one end-user is never handed out for another.
    const cacheKey = `${JSON.stringify(kmsContext(ctx))}|${encrypted}`;
    const cached = this.opened.get(cacheKey);
    if (cached) return cached;
    const out = await this.kms.send(
      new DecryptCommand({
        CiphertextBlob: Buffer.from(encrypted, 'base64'),
        EncryptionContext: kmsContext(ctx),
        KeyId: this.keyId,
      }),
    );
    if (!out.Plaintext) throw new Error('KMS returned no plaintext');
    const key = Buffer.from(out.Plaintext);
    this.opened.set(cacheKey, key);
    return key;
  }

  private async decryptDirect(blob: string, ctx: EncryptionContext): Promise<string> {
    const out = await this.kms.send(
      new DecryptCommand({
        CiphertextBlob: Buffer.from(blob, 'base64'),
        EncryptionContext: kmsContext(ctx),
        KeyId: this.keyId,
      }),
    );
    return Buffer.from(out.Plaintext ?? new Uint8Array()).toString('utf8');
  }
}
