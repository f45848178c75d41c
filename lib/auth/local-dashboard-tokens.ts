import { SignJWT, jwtVerify } from 'jose';
import type { DashboardTokenVerifier } from './dashboard-tokens.js';

const LOCAL_ISSUER = 'bts-local-dashboard';
const LOCAL_AUDIENCE = 'bts-dashboard';

/** The local runtime signs its own short-lived HS256 tokens (the admin CLI mints them). */
export class LocalDashboardTokens implements DashboardTokenVerifier {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('The local dashboard secret must be at least 32 characters');
    this.key = new TextEncoder().encode(secret);
  }

  async mint(businessId: string, ttlSeconds = 3600): Promise<string> {
    return new SignJWT({ businessId, token_use: 'dashboard' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_AUDIENCE)
      .setSubject(businessId)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  async verify(token: string): Promise<{ businessId: string } | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: LOCAL_ISSUER,
        audience: LOCAL_AUDIENCE,
        algorithms: ['HS256'],
      });
      return typeof payload.businessId === 'string' ? { businessId: payload.businessId } : undefined;
    } catch {
      return undefined;
    }
  }
}
