import type { Config } from '../config.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { ApiKeyRepository } from '../keys/api-key-repository.js';
import { hashApiKey, looksLikeApiKey } from '../keys/model.js';
import { looksLikeJwt, type DashboardTokenVerifier } from './dashboard-tokens.js';
import type { AuthContext } from '../auth-context.js';

export interface AuthDeps {
  apiKeys: ApiKeyRepository;
  dashboardTokens: DashboardTokenVerifier;
  config: Pick<Config, 'BTS_LAST_USED_RESOLUTION_S'>;
  now: () => Date;
}

/** The token of an `Authorization: Bearer <token>` header, or the 401 saying what is wrong. */
export function bearerToken(header: string | undefined): string {
  if (!header) throw new UnauthorizedError('Missing Authorization header; send `Authorization: Bearer <API key>`');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1]) throw new UnauthorizedError('Authorization header must be `Bearer <token>`');
  return m[1];
}

/** Data-plane auth: API keys only. No cache, so a revocation is honoured at once. */
export async function authenticateApiKey(
  deps: Pick<AuthDeps, 'apiKeys' | 'config' | 'now'>,
  header: string | undefined,
): Promise<AuthContext> {
  const token = bearerToken(header);
  if (!looksLikeApiKey(token)) {
    throw new UnauthorizedError(looksLikeJwt(token) ? 'Dashboard tokens are not accepted here; use an API key' : 'Invalid API key');
  }
  const key = await deps.apiKeys.findByHash(hashApiKey(token));
  if (!key) throw new UnauthorizedError('Invalid API key');
  if (key.revokedAt) throw new ForbiddenError('This API key has been revoked');
  const now = deps.now();
  const staleBefore = new Date(now.getTime() - deps.config.BTS_LAST_USED_RESOLUTION_S * 1000);
  // lastUsedAt is refreshed at most once per resolution window, not on every request.
  if (!key.lastUsedAt || key.lastUsedAt < staleBefore.toISOString()) {
    await deps.apiKeys.touchLastUsed(key.keyHash, now, staleBefore);
  }
  return { businessId: key.businessId, keyId: key.keyId };
}

/** Dashboard auth for /v1/api-keys: session tokens only; an API key here is a 401. */
export async function authenticateDashboard(deps: Pick<AuthDeps, 'dashboardTokens'>, header: string | undefined): Promise<AuthContext> {
  const token = bearerToken(header);
  if (looksLikeApiKey(token)) throw new UnauthorizedError('API keys cannot manage keys; use a dashboard session token');
  const verified = await deps.dashboardTokens.verify(token);
  if (!verified) throw new UnauthorizedError('Invalid or expired dashboard token');
  return { businessId: verified.businessId };
}
