import { createHash, timingSafeEqual } from 'node:crypto';
import { hashApiKey } from '../keys/model.js';
import type { ApiKeyRepository } from '../keys/api-key-repository.js';

/**
 * Bearer checks for HTTP `/mcp` requests. Each returns the caller's identity (used to
 * bind an MCP session to the key that opened it) or undefined for a 401.
 */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<string | undefined>;
}

export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

export class NoAuth implements Authenticator {
  async authenticate(): Promise<string> {
    return 'anonymous';
  }
}

export class StaticKeyAuth implements Authenticator {
  private readonly expected: Buffer;

  constructor(apiKey: string) {
    this.expected = createHash('sha256').update(apiKey).digest();
  }

  async authenticate(header: string | undefined): Promise<string | undefined> {
    const token = bearerToken(header);
    if (!token) return undefined;
    // Digests have equal length whatever the input, so the comparison time reveals nothing about the key.
    const given = createHash('sha256').update(token).digest();
    return timingSafeEqual(given, this.expected) ? 'static' : undefined;
  }
}

interface CacheEntry {
  identity: string;
  expiresAt: number;
}

/**
 * Looks the bearer's SHA-256 up in the API-key table. Valid keys are cached for the TTL,
 * so a revocation is honoured at the latest one TTL later; unknown and revoked keys are
 * not cached, so a new key works at once and a flood of bad tokens cannot fill memory.
 */
export class TableKeyAuth implements Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  private static readonly MAX_ENTRIES = 10_000;

  constructor(
    private readonly repo: Pick<ApiKeyRepository, 'findByHash'>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(header: string | undefined): Promise<string | undefined> {
    const token = bearerToken(header);
    if (!token) return undefined;
    const hash = hashApiKey(token);
    const hit = this.cache.get(hash);
    if (hit && hit.expiresAt > this.now()) return hit.identity;
    this.cache.delete(hash);
    const record = await this.repo.findByHash(hash);
    if (!record || record.revokedAt) return undefined;
    if (this.cache.size >= TableKeyAuth.MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value ?? '');
    const identity = `${record.businessId}/${record.keyId}`;
    if (this.ttlMs > 0) this.cache.set(hash, { identity, expiresAt: this.now() + this.ttlMs });
    return identity;
  }
}
