import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { contextAad, decodeSealed, encodeSealed, open, seal } from './aes-gcm.js';
import type { EncryptionContext, Encryptor } from './encryptor.js';

interface KeyringFile {
  current: string;
  keys: Record<string, string>;
}

/**
 * AES-256-GCM with keys from a local keyring file. The context is the GCM additional
 * data, mirroring KMS encryption context. Key ids in the ciphertext allow rotation.
 *
 * Formats: `local2:<key id>:<iv>:<tag>:<body>` binds the credential field too (written
 * now); `local:…` (no field in the additional data) is still read, and is replaced by a
 * `local2:` ciphertext the next time its value is PUT. There is no bulk migration.
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
    const sealed = seal(this.key(this.keyring.current), plaintext, contextAad(ctx, { withField: true }));
    return `local2:${this.keyring.current}:${encodeSealed(sealed)}`;
  }

  async decrypt(ciphertext: string, ctx: EncryptionContext): Promise<string> {
    const [scheme, keyId, ...rest] = ciphertext.split(':');
    if ((scheme !== 'local' && scheme !== 'local2') || !keyId) throw new Error('Malformed local ciphertext');
    return open(this.key(keyId), decodeSealed(rest), contextAad(ctx, { withField: scheme === 'local2' }));
  }
}
