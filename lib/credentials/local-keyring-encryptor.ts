import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EncryptionContext, Encryptor } from './encryptor.js';

interface KeyringFile {
  current: string;
  keys: Record<string, string>;
}

/**
 * AES-256-GCM with keys from a local keyring file. The context is the GCM additional
 * data, mirroring KMS encryption context. Key ids in the ciphertext allow rotation.
 */
export class LocalKeyringEncryptor implements Encryptor {
  private loaded: KeyringFile | undefined;

  /** The file is read (or created) on first use, so building the service's deps does no I/O. */
  constructor(private readonly file: string) {}

  private get keyring(): KeyringFile {
    this.loaded ??= LocalKeyringEncryptor.load(this.file);
    return this.loaded;
  }

  static load(file: string): KeyringFile {
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      const id = `k${Date.now().toString(36)}`;
      const fresh: KeyringFile = { current: id, keys: { [id]: randomBytes(32).toString('base64') } };
      // `wx` fails if another process created it first; then we read theirs.
      try {
        writeFileSync(file, JSON.stringify(fresh), { mode: 0o600, flag: 'wx' });
      } catch {
        /* created concurrently */
      }
    }
    return JSON.parse(readFileSync(file, 'utf8')) as KeyringFile;
  }

  private key(id: string): Buffer {
    const k = this.keyring.keys[id];
    if (!k) throw new Error(`Unknown keyring key ${id}`);
    return Buffer.from(k, 'base64');
  }

  async encrypt(plaintext: string, ctx: EncryptionContext): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.keyring.current), iv);
    cipher.setAAD(aad(ctx));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['local', this.keyring.current, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  async decrypt(ciphertext: string, ctx: EncryptionContext): Promise<string> {
    const [scheme, keyId, iv, tag, body] = ciphertext.split(':');
    if (scheme !== 'local' || !keyId || !iv || !tag || body === undefined) throw new Error('Malformed local ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', this.key(keyId), Buffer.from(iv, 'base64'));
    decipher.setAAD(aad(ctx));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}

/** Canonical, order-independent encoding of the context. */
const aad = (ctx: EncryptionContext): Buffer =>
  Buffer.from(JSON.stringify([['businessId', ctx.businessId], ['endUserId', ctx.endUserId]]), 'utf8');
