import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Secrets look like `bts_live_<40 base62>`: recognisable in logs and secret scanners. */
export const API_KEY_PREFIX = 'bts_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40;
/** How much of the key the dashboard shows. */
const VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

export interface ApiKeyRecord {
  keyHash: string;
  businessId: string;
  keyId: string;
  prefix: string;
  label?: string;
  createdAt: string;
  /** Written here before the Activity table existed; read for those keys, never written now. */
  lastUsedAt?: string;
  revokedAt?: string;
}

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/** Base62 without modulo bias: bytes >= 248 are rejected and redrawn. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

export function mintApiKey(
  businessId: string,
  label: string | undefined,
  now: Date,
): { secret: string; record: ApiKeyRecord } {
  const secret = API_KEY_PREFIX + randomBase62(SECRET_LENGTH);
  const record: ApiKeyRecord = {
    keyHash: hashApiKey(secret),
    businessId,
    keyId: `key_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
    prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH),
    createdAt: now.toISOString(),
  };
  if (label !== undefined) record.label = label;
  return { secret, record };
}
