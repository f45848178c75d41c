import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { hashApiKey, looksLikeApiKey } from '../keys/api-key.js';
import type { ApiKeyRepository } from '../keys/api-key-repository.js';
import { looksLikeJwt, type DashboardTokenVerifier } from './dashboard-token.js';

export interface AuthContext {
  businessId: string;
  /** The API key that authenticated the call; absent for dashboard tokens. */
  keyId?: string;
}

export function bearerToken(header: string | undefined): string {
  if (!header) throw new UnauthorizedError('Missing Authorization header; send `Authorization: Bearer <API key>`');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1]) throw new UnauthorizedError('Authorization header must be `Bearer <token>`');
  return m[1];
}

/** Data-plane auth: API keys only. No cache, so a revocation is honoured at once. */
export async function authenticateApiKey(
  deps: { apiKeys: ApiKeyRepository; now: () => Date; lastUsedResolutionMs: number },
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
  const staleBefore = new Date(now.getTime() - deps.lastUsedResolutionMs);
  // lastUsedAt is refreshed at most once per resolution window, not on every request.
  if (!key.lastUsedAt || key.lastUsedAt < staleBefore.toISOString()) {
    await deps.apiKeys.touchLastUsed(key.keyHash, now, staleBefore);
  }
  return { businessId: key.businessId, keyId: key.keyId };
}

/** Dashboard auth for /v1/api-keys: session tokens only; an API key here is a 401. */
export async function authenticateDashboard(
  deps: { dashboardTokens: DashboardTokenVerifier },
  header: string | undefined,
): Promise<AuthContext> {
  const token = bearerToken(header);
  if (looksLikeApiKey(token)) {
    throw new UnauthorizedError('API keys cannot manage keys; use a dashboard session token');
  }
  const verified = await deps.dashboardTokens.verify(token);
  if (!verified) throw new UnauthorizedError('Invalid or expired dashboard token');
  return { businessId: verified.businessId };
}
