import type { Config } from '../config.js';
import { ForbiddenError, RateLimitedError, UnauthorizedError } from '../errors.js';
import type { ApiKeyRepository } from '../keys/api-key-repository.js';
import type { KeyActivityRepository } from '../keys/key-activity-repository.js';
import { hashApiKey, looksLikeApiKey } from '../keys/model.js';
import { looksLikeJwt, type DashboardTokenVerifier } from './dashboard-tokens.js';
import type { AuthContext } from '../auth-context.js';

export interface AuthDeps {
  apiKeys: ApiKeyRepository;
  keyActivity: KeyActivityRepository;
  dashboardTokens: DashboardTokenVerifier;
  config: Pick<Config, 'BTS_RATE_LIMIT_PER_MINUTE'>;
  now: () => Date;
}

/** The per-key rate limit counts fixed one-minute windows. */
export const RATE_WINDOW_MS = 60_000;

/** The token of an `Authorization: Bearer <token>` header, or the 401 saying what is wrong. */
export function bearerToken(header: string | undefined): string {
  if (!header) throw new UnauthorizedError('Missing Authorization header; send `Authorization: Bearer <API key>`');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1]) throw new UnauthorizedError('Authorization header must be `Bearer <token>`');
  return m[1];
}

/**
 * Data-plane auth: API keys only. No cache, so a revocation is honoured at once. Then
 * the key's per-minute allowance: one conditional counter write per request, which also
 * refreshes lastUsedAt on the first request of each window (at most once a minute).
 */
export async function authenticateApiKey(
  deps: Pick<AuthDeps, 'apiKeys' | 'keyActivity' | 'config' | 'now'>,
  header: string | undefined,
): Promise<AuthContext> {
  const token = bearerToken(header);
  if (!looksLikeApiKey(token)) {
    throw new UnauthorizedError(
      looksLikeJwt(token) ? 'Dashboard tokens are not accepted here; use an API key' : 'Invalid API key',
    );
  }
  const key = await deps.apiKeys.findByHash(hashApiKey(token));
  if (!key) throw new UnauthorizedError('Invalid API key');
  if (key.revokedAt) throw new ForbiddenError('This API key has been revoked');
  const now = deps.now();
  const windowStart = new Date(Math.floor(now.getTime() / RATE_WINDOW_MS) * RATE_WINDOW_MS);
  // Limit 0 turns the limit off; the window is still counted, for lastUsedAt.
  const limit = deps.config.BTS_RATE_LIMIT_PER_MINUTE || Number.MAX_SAFE_INTEGER;
  const counted = await deps.keyActivity.countRequest(key.keyId, windowStart, RATE_WINDOW_MS, limit);
  if (!counted.admitted) {
    const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + RATE_WINDOW_MS - now.getTime()) / 1000));
    throw new RateLimitedError(deps.config.BTS_RATE_LIMIT_PER_MINUTE, retryAfter);
  }
  if (counted.hits === 1) await deps.keyActivity.touchLastUsed(key.keyId, now);
  return { businessId: key.businessId, keyId: key.keyId };
}

/** Dashboard auth for /v1/api-keys: session tokens only; an API key here is a 401. */
export async function authenticateDashboard(
  deps: Pick<AuthDeps, 'dashboardTokens'>,
  header: string | undefined,
): Promise<AuthContext> {
  const token = bearerToken(header);
  if (looksLikeApiKey(token)) throw new UnauthorizedError('API keys cannot manage keys; use a dashboard session token');
  const verified = await deps.dashboardTokens.verify(token);
  if (!verified) throw new UnauthorizedError('Invalid or expired dashboard token');
  return { businessId: verified.businessId };
}
