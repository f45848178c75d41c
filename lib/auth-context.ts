/** Who is calling: the business a bearer token acts for. */
export interface AuthContext {
  businessId: string;
  /** The API key that authenticated the call; absent for dashboard tokens. */
  keyId?: string;
}
