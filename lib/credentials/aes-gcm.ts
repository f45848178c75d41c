import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptionContext } from './encryptor.js';

/** GCM's full 128-bit tag: a shorter one would let a forger try 2^32 or fewer guesses. */
const TAG_BYTES = 16;
const IV_BYTES = 12;

export interface Sealed {
  iv: Buffer;
  tag: Buffer;
  body: Buffer;
}

/** AES-256-GCM under `key`, authenticating `aad` alongside the plaintext. */
export function seal(key: Buffer, plaintext: string, aad: Buffer): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), body };
}

/** The inverse of seal; a truncated tag or IV is refused before Node would accept it. */
export function open(key: Buffer, sealed: Sealed, aad: Buffer): string {
  if (sealed.tag.length !== TAG_BYTES) throw new Error(`Authentication tag must be ${TAG_BYTES} bytes`);
  if (sealed.iv.length !== IV_BYTES) throw new Error(`IV must be ${IV_BYTES} bytes`);
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.body), decipher.final()]).toString('utf8');
}

/** `iv:tag:body` in base64, the tail every versioned ciphertext of this service shares. */
export const encodeSealed = (s: Sealed): string => [s.iv, s.tag, s.body].map((b) => b.toString('base64')).join(':');

export function decodeSealed(parts: readonly (string | undefined)[]): Sealed {
  const [iv, tag, body] = parts;
  if (!iv || !tag || body === undefined || parts.length !== 3) throw new Error('Malformed ciphertext');
  return { iv: Buffer.from(iv, 'base64'), tag: Buffer.from(tag, 'base64'), body: Buffer.from(body, 'base64') };
}

/**
 * Canonical, order-independent additional data for a context. Without `field` it is the
 * encoding the first ciphertext version used, so those still open; with it, a credential
 * ciphertext cannot be moved to another field of the same end-user.
 */
export function contextAad(ctx: EncryptionContext, opts: { withField: boolean }): Buffer {
  const pairs: [string, string][] = [
    ['businessId', ctx.businessId],
    ['endUserId', ctx.endUserId],
  ];
  if (opts.withField) pairs.push(['field', ctx.field ?? '']);
  return Buffer.from(JSON.stringify(pairs), 'utf8');
}
