/** Verifies a dashboard session token and yields the business it acts for. */
export interface DashboardTokenVerifier {
  verify(token: string): Promise<{ businessId: string } | undefined>;
}

/** A compact JWS: three base64url segments. Used to tell token types apart. */
export const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
